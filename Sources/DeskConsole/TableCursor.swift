/// The selected row of a table (staff, HIS clients, audit entries, contacts): moved by the
/// keys every table shares, by the wheel and by clicks, and kept on the same row across a
/// reload.
///
/// Pure: a position and the table's size in, a position out; each screen keeps its own
/// `selected` index (what it means, and what moving past the end does, stay the screen's).
public enum TableCursor {
    /// Rows a page key moves.
    public static let page = 10

    /// The moves a table's keys make.
    public enum Move: Hashable, Sendable { case up, down, pageUp, pageDown, top, bottom }

    /// The rows `move` goes by (top and bottom: as far as the table goes).
    public static func rows(_ move: Move) -> Int {
        switch move {
        case .up: return -1
        case .down: return 1
        case .pageUp: return -page
        case .pageDown: return page
        case .top: return Int.min / 2
        case .bottom: return Int.max / 2
        }
    }

    /// The position after `move` in a table of `count` rows.
    public static func position(_ selected: Int, after move: Move, count: Int) -> Int {
        switch move {
        case .top: return 0
        case .bottom: return max(0, count - 1)
        default: return position(selected, by: rows(move), count: count)
        }
    }

    /// The position `rows` away (the wheel's rows, a key's), within the table; an empty table
    /// keeps its position.
    public static func position(_ selected: Int, by rows: Int, count: Int) -> Int {
        guard count > 0 else { return selected }
        return min(max(0, selected + rows), count - 1)
    }

    /// After a reload: the position of the row whose `id` is `keep`, or the first row when it
    /// is gone (or nothing was selected).
    public static func position<Row, ID: Equatable>(of keep: ID?, in rows: [Row], id: (Row) -> ID) -> Int {
        guard let keep else { return 0 }
        return rows.firstIndex { id($0) == keep } ?? 0
    }
}
