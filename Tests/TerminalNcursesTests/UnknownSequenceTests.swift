import TerminalKit
import Testing

/// Sequences no key stands for are dropped, never typed (issue 20, defect 19): in the one
/// serialized suite, as every test of the real backend.
extension NcursesBackendTests {
    struct DroppedCase: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: String
        var mouse = false
        var testDescription: String { name }
    }

    static let droppedCases: [DroppedCase] = [
        DroppedCase(name: "SGR mouse report with the mouse off", bytes: "\u{1b}[<0;10;5M\u{1b}[<0;10;5m"),
        DroppedCase(name: "SGR wheel with the mouse off", bytes: "\u{1b}[<64;3;2M"),
        DroppedCase(name: "X10 mouse report with the mouse off", bytes: "\u{1b}[M !!"),
        DroppedCase(name: "unknown CSI key (Ctrl-Up)", bytes: "\u{1b}[1;5A"),
        DroppedCase(name: "unknown CSI with a tilde", bytes: "\u{1b}[99~"),
        DroppedCase(name: "focus report", bytes: "\u{1b}[I"),
        DroppedCase(name: "cursor position report", bytes: "\u{1b}[12;40R"),
        DroppedCase(name: "unknown SS3 key", bytes: "\u{1b}Oz"),
        DroppedCase(name: "OSC answer ended by BEL", bytes: "\u{1b}]11;rgb:0000/0000/0000\u{07}"),
        DroppedCase(name: "OSC answer ended by ESC \\", bytes: "\u{1b}]11;rgb:ffff/ffff/ffff\u{1b}\\"),
        DroppedCase(name: "unknown mouse button with the mouse on", bytes: "\u{1b}[<1;10;5M", mouse: true),
    ]

    @Test(arguments: droppedCases)
    func unknownSequenceIsDropped(_ dropped: DroppedCase) throws {
        let harness = try NcursesHarness(mouse: dropped.mouse)
        defer { harness.finish() }
        // A key after it shows the sequence was read to its end and nothing of it was typed.
        harness.type(dropped.bytes + "k")
        #expect(harness.events() == [.key(.char("k"))])
    }
}
