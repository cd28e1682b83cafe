import Testing

@testable import TerminalKit

@Suite struct BufferTests {
    @Test func putClipsAndReportsWidth() {
        var buffer = Buffer(width: 8, height: 2)
        #expect(buffer.put("hello world", x: 1, y: 0) == 7)
        #expect(buffer.put("abc", x: 0, y: 1, maxWidth: 2) == 2)
        // Cut to its room, text ends in an ellipsis; clipped by the buffer's edge, it does not.
        expectLines(buffer.lines, [" hello w", "a…"])
    }

    @Test func maxWidthCutsWithTheGlyphSetsEllipsis() {
        var buffer = Buffer(width: 10, height: 2, glyphs: .asciiOnly)
        buffer.put("+39 333 123 4567", x: 0, y: 0, maxWidth: 8)
        buffer.put("fits", x: 0, y: 1, maxWidth: 4)
        expectLines(buffer.lines, ["+39 3...", "fits"])
    }

    @Test func asciiGlyphsWriteEverySymbolInASCII() {
        var buffer = Buffer(width: 20, height: 1, glyphs: .asciiOnly)
        buffer.put("┌─ ✓ ≥ 15 · José │", x: 0, y: 0)
        expectLines(buffer.lines, ["+- ok >= 15 - Jos? |"])
    }

    @Test func wideCharacterIsNeverSplitAtTheRightEdge() {
        var buffer = Buffer(width: 5, height: 1)
        buffer.put("ab中文", x: 0, y: 0)
        expectLines(buffer.lines, ["ab中"])
        #expect(buffer[4, 0].symbol == " ")
    }

    @Test func wideCharacterIsNeverSplitAtTheLeftClipEdge() {
        var buffer = Buffer(width: 6, height: 1, filling: Cell("x"))
        buffer.put("中文", x: 1, y: 0, clip: Rect(x: 2, y: 0, width: 4, height: 1))
        expectLines(buffer.lines, ["xx 文x"])
        #expect(buffer[2, 0].symbol == " ")
    }

    @Test func clipCutsBeforeAWideCharacter() {
        var buffer = Buffer(width: 6, height: 1)
        buffer.put("a中b", x: 0, y: 0, clip: Rect(x: 0, y: 0, width: 2, height: 1))
        #expect(buffer[0, 0].symbol == "a")
        #expect(buffer[1, 0].symbol == " ")
        #expect(!buffer[1, 0].isContinuation)
    }

    @Test func overwritingTheRightHalfOfAWideCharacterRepairsTheLeftHalf() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.put("中", x: 0, y: 0)
        buffer.put("x", x: 1, y: 0)
        expectLines(buffer.lines, [" x"])
        #expect(!buffer[1, 0].isContinuation)
    }

    @Test func overwritingTheLeftHalfOfAWideCharacterRepairsTheRightHalf() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.put("中", x: 1, y: 0)
        buffer.put("x", x: 1, y: 0)
        expectLines(buffer.lines, [" x"])
        #expect(buffer[2, 0].symbol == " ")
    }

    @Test func aWideCharacterLandingOnAnotherOrphansNothing() {
        var buffer = Buffer(width: 5, height: 1)
        buffer.put("a中", x: 0, y: 0)
        buffer.put("文", x: 0, y: 0)
        expectLines(buffer.lines, ["文"])
        #expect(buffer.cells.filter(\.isContinuation).count == 1)
        #expect(buffer[1, 0].isContinuation)
        #expect(buffer[2, 0].symbol == " ")
    }

    @Test func fillAcrossHalfAWideCharacterRepairsIt() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.put("中中", x: 0, y: 0)
        buffer.fill(Rect(x: 1, y: 0, width: 2, height: 1), with: Cell("-"))
        expectLines(buffer.lines, [" -- "].map { String($0.dropLast()) })
        #expect(buffer.cells.allSatisfy { !$0.isContinuation })
    }

    @Test func controlCharactersAreDrawnAsSpaces() {
        var buffer = Buffer(width: 6, height: 1)
        buffer.put("a\tb\u{1B}c\u{85}", x: 0, y: 0)
        expectLines(buffer.lines, ["a b c"])
    }

    @Test func combiningMarksStayWithTheirBase() {
        var buffer = Buffer(width: 4, height: 1)
        #expect(buffer.put("e\u{301}x", x: 0, y: 0) == 2)
        #expect(buffer[0, 0].symbol == "e\u{301}")
    }

    @Test func diffListsExactlyTheChangedCells() {
        var before = Buffer(width: 6, height: 2)
        before.put("abc", x: 0, y: 0)
        var after = before
        after.put("X", x: 1, y: 0)
        after.put("Z", x: 5, y: 1)
        let changes = after.diff(from: before)
        #expect(changes.map { "\($0.x),\($0.y)=\($0.cell.symbol)" } == ["1,0=X", "5,1=Z"])
        #expect(after.diff(from: after).isEmpty)
    }

    @Test func diffSendsAWideCharacterOnceAndItsReplacementsBoth() {
        let blank = Buffer(width: 4, height: 1)
        var wide = blank
        wide.put("中", x: 1, y: 0)
        #expect(wide.diff(from: blank).map(\.x) == [1])
        var narrow = wide
        narrow.put("ab", x: 1, y: 0)
        #expect(narrow.diff(from: wide).map { "\($0.x)=\($0.cell.symbol)" } == ["1=a", "2=b"])
    }

    @Test func diffResendsTheWideCellWhenOnlyItsContinuationChanged() {
        var before = Buffer(width: 3, height: 1)
        before.put("中", x: 0, y: 0)
        var after = before
        after.setStyle(Style(.error), in: Rect(x: 1, y: 0, width: 1, height: 1))
        #expect(after.diff(from: before).map(\.x) == [0])
    }

    @Test func diffAppliedToABackendReproducesTheFrame() {
        let backend = TestBackend(width: 6, height: 2)
        var frame = Buffer(width: 6, height: 2)
        frame.put("中a文", x: 0, y: 0, style: Style(.title))
        backend.draw(frame.diff(from: backend.screen), cursor: nil)
        var next = frame
        next.put("xy", x: 1, y: 0)
        next.put("✓ ok", x: 0, y: 1, style: Style(.ok))
        backend.draw(next.diff(from: frame), cursor: (1, 1))
        #expect(backend.screen == next.withCursor(nil))
        #expect(backend.cursor?.x == 1)
    }

    @Test func diffOfDifferentSizesRepaintsEverything() {
        let small = Buffer(width: 2, height: 1)
        var big = Buffer(width: 3, height: 1)
        big.put("中", x: 0, y: 0)
        #expect(big.diff(from: small).map(\.x) == [0, 2])
    }

    @Test func roleLinesShowOneLetterPerCell() {
        var buffer = Buffer(width: 6, height: 2)
        buffer.put("ok", x: 0, y: 0, style: Style(.ok))
        buffer.put("中", x: 3, y: 0, style: Style(.error))
        buffer.setStyle(Style(.selection), in: Rect(x: 0, y: 1, width: 3, height: 1))
        expectLines(buffer.roleLines, ["oo.ee.", "SSS..."])
    }

    @Test func linesTrimTrailingSpacesAndTextJoinsThem() {
        var buffer = Buffer(width: 5, height: 2)
        buffer.put("a  ", x: 0, y: 0)
        buffer.put("b", x: 2, y: 1)
        #expect(buffer.text == "a\n  b")
    }
}

extension Buffer {
    /// A copy with a given cursor, to compare with a backend's screen (which has none).
    fileprivate func withCursor(_ cursor: (x: Int, y: Int)?) -> Buffer {
        var copy = self
        copy.cursor = cursor
        return copy
    }
}
