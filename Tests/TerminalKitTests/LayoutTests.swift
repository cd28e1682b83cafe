import Testing

@testable import TerminalKit

@Suite struct LayoutTests {
    static let verticalCases: [([Constraint], Int, Int, [Int])] = [
        // constraints, height, spacing, expected heights
        ([.length(1), .fill(), .length(1)], 24, 0, [1, 22, 1]),
        ([.length(3), .fill(), .length(1)], 2, 0, [2, 0, 0]),
        ([.percent(50), .fill()], 10, 0, [5, 5]),
        ([.fill(1), .fill(2)], 9, 0, [3, 6]),
        ([.fill(), .fill(), .fill()], 10, 0, [4, 3, 3]),
        ([.min(3), .length(2)], 10, 0, [8, 2]),
        ([.min(3), .fill()], 10, 0, [7, 3]),
        ([.length(2), .length(2)], 10, 0, [2, 2]),
        ([.length(2), .fill(), .length(2)], 10, 1, [2, 4, 2]),
        ([.length(5), .length(5)], 0, 0, [0, 0]),
        ([.length(-3), .fill()], 4, 0, [0, 4]),
        ([.percent(150), .fill()], 4, 0, [4, 0]),
    ]

    @Test(arguments: verticalCases)
    func verticalHeights(_ constraints: [Constraint], _ height: Int, _ spacing: Int, _ want: [Int]) {
        let rects = Layout.vertical(constraints, spacing: spacing).split(Rect(x: 2, y: 1, width: 7, height: height))
        #expect(rects.map(\.height) == want)
        #expect(rects.allSatisfy { $0.width == 7 && $0.x == 2 })
        #expect(rects.allSatisfy { $0.y >= 1 && $0.maxY <= 1 + height })
    }

    @Test func verticalPositionsIncludeSpacing() {
        let rects = Layout.vertical([.length(2), .fill(), .length(2)], spacing: 1)
            .split(Rect(x: 0, y: 0, width: 5, height: 10))
        #expect(rects.map(\.y) == [0, 3, 8])
    }

    @Test func horizontalSplit() {
        let rects = Layout.horizontal([.length(10), .fill()], spacing: 2).split(Rect(x: 1, y: 3, width: 30, height: 4))
        #expect(rects == [Rect(x: 1, y: 3, width: 10, height: 4), Rect(x: 13, y: 3, width: 18, height: 4)])
    }

    @Test func spacingThatDoesNotFitLeavesLaterPartsEmpty() {
        let rects = Layout.horizontal([.length(2), .length(2), .length(2)], spacing: 3)
            .split(Rect(x: 0, y: 0, width: 6, height: 1))
        #expect(rects.map(\.width) == [2, 1, 0])
        #expect(rects.allSatisfy { $0.maxX <= 6 && $0.width >= 0 })
    }

    @Test func emptyConstraintsGiveNoRects() {
        #expect(Layout.vertical([]).split(Rect(x: 0, y: 0, width: 5, height: 5)).isEmpty)
    }
}
