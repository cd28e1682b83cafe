/// A terminal in memory: the program loop draws into a ``Buffer`` and reads queued events.
///
/// For tests of whole screens and of the program loop, with no terminal at all.
public final class TestBackend: TerminalBackend {
    public private(set) var screen: Buffer
    public private(set) var cursor: (x: Int, y: Int)?
    public private(set) var drawCount = 0
    public private(set) var cellsWritten = 0
    public var events: [InputEvent] = []
    /// How many times the program suspended it (Ctrl-Z).
    public private(set) var suspendCount = 0
    /// Called by ``suspend()`` (a test changes the size there, as a terminal resized meanwhile).
    public var onSuspend: (() -> Void)?
    /// Every clipboard write, as the bytes a terminal would have received (OSC 52).
    public private(set) var clipboardWrites: [[UInt8]] = []
    /// The texts copied, in order.
    public private(set) var copied: [String] = []

    public init(width: Int, height: Int) {
        screen = Buffer(width: width, height: height)
    }

    public var size: TerminalSize { TerminalSize(width: screen.width, height: screen.height) }

    public func draw(_ changes: [CellChange], cursor: (x: Int, y: Int)?) {
        for change in changes {
            screen[change.x, change.y] = change.cell
            if DisplayWidth.of(change.cell.symbol) == 2 {
                screen[change.x + 1, change.y] = Cell("", style: change.cell.style)
            }
        }
        self.cursor = cursor
        drawCount += 1
        cellsWritten += changes.count
    }

    public func invalidate() {
        screen = Buffer(width: screen.width, height: screen.height)
    }

    public func nextEvent(timeoutMilliseconds: Int) -> InputEvent? {
        events.isEmpty ? nil : events.removeFirst()
    }

    public func copyToClipboard(_ text: String) -> Clipboard.Outcome {
        let (bounded, cut) = Clipboard.bounded(text)
        clipboardWrites.append(Clipboard.sequence(for: bounded))
        copied.append(bounded)
        return .copied(cut: cut)
    }

    /// Counts, runs ``onSuspend``, and forgets what was on screen (the shell drew over it).
    public func suspend() {
        suspendCount += 1
        onSuspend?()
        screen = Buffer(width: screen.width, height: screen.height)
    }

    /// Changes the size without queuing an event (what a terminal resized while stopped does).
    public func setSize(width: Int, height: Int) {
        screen = Buffer(width: width, height: height)
    }

    /// Changes the size, as a terminal resize would, and queues the resize event.
    public func resize(width: Int, height: Int) {
        screen = Buffer(width: width, height: height)
        events.append(.resize(TerminalSize(width: width, height: height)))
    }
}
