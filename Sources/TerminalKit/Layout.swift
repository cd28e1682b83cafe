/// How much of a row or column one part of a ``Layout`` asks for.
///
/// Screens describe their layout as data so that it re-flows on every resize with no special
/// code: the same constraints give sensible rectangles at 80×24 and at 1×1.
public enum Constraint: Hashable, Sendable {
    /// Exactly this many cells (fewer if space runs out).
    case length(Int)
    /// At least this many cells; also shares leftover space like `fill(1)`.
    case min(Int)
    /// This percentage of the whole length (spacing excluded), rounded down.
    case percent(Int)
    /// A share of whatever is left after the other constraints, by weight.
    case fill(Int = 1)
}

/// Splits a rectangle into rows or columns from a list of ``Constraint``s.
///
/// Fixed parts (`length`, `min`, `percent`) are served first, in order; what remains goes to
/// `fill` and `min` parts by weight, the rounding remainder to the earliest ones. Sizes are
/// never negative: when space runs out, later parts get zero size (still positioned inside the
/// rectangle), so callers can always draw into every returned rect without checks.
public struct Layout: Hashable, Sendable {
    /// Whether parts are stacked top to bottom or placed left to right.
    public enum Direction: Hashable, Sendable { case vertical, horizontal }

    public var direction: Direction
    public var constraints: [Constraint]
    /// Empty cells between neighbouring parts.
    public var spacing: Int

    public init(_ direction: Direction, _ constraints: [Constraint], spacing: Int = 0) {
        self.direction = direction
        self.constraints = constraints
        self.spacing = Swift.max(0, spacing)
    }

    /// Parts stacked top to bottom (rows).
    public static func vertical(_ constraints: [Constraint], spacing: Int = 0) -> Layout {
        Layout(.vertical, constraints, spacing: spacing)
    }

    /// Parts placed left to right (columns).
    public static func horizontal(_ constraints: [Constraint], spacing: Int = 0) -> Layout {
        Layout(.horizontal, constraints, spacing: spacing)
    }

    /// One rectangle per constraint, in order.
    public func split(_ rect: Rect) -> [Rect] {
        let length = direction == .vertical ? rect.height : rect.width
        let sizes = Layout.sizes(for: constraints, length: length, spacing: spacing)
        var rects: [Rect] = []
        rects.reserveCapacity(sizes.count)
        var position = 0
        for size in sizes {
            let start = Swift.min(position, length)
            let clamped = Swift.max(0, Swift.min(size, length - start))
            switch direction {
            case .vertical:
                rects.append(Rect(x: rect.x, y: rect.y + start, width: rect.width, height: clamped))
            case .horizontal:
                rects.append(Rect(x: rect.x + start, y: rect.y, width: clamped, height: rect.height))
            }
            position = start + clamped + spacing
        }
        return rects
    }

    /// The length of each part along the split axis (before placement clips the spacing).
    static func sizes(for constraints: [Constraint], length: Int, spacing: Int) -> [Int] {
        guard !constraints.isEmpty else { return [] }
        // When even the gaps do not fit, size parts against the whole length and let
        // placement clip: the first parts keep their size and the later ones shrink to zero.
        let gaps = spacing * (constraints.count - 1)
        let budget = Swift.max(0, gaps < length ? length - gaps : length)
        var remaining = budget
        var sizes = [Int](repeating: 0, count: constraints.count)
        var weights = [Int](repeating: 0, count: constraints.count)
        for (index, constraint) in constraints.enumerated() {
            let wanted: Int
            switch constraint {
            case .length(let n): wanted = n
            case .min(let n):
                wanted = n
                weights[index] = 1
            case .percent(let p): wanted = budget * Swift.max(0, Swift.min(p, 100)) / 100
            case .fill(let w):
                wanted = 0
                weights[index] = Swift.max(0, w)
            }
            let granted = Swift.max(0, Swift.min(wanted, remaining))
            sizes[index] = granted
            remaining -= granted
        }
        let totalWeight = weights.reduce(0, +)
        guard remaining > 0, totalWeight > 0 else { return sizes }
        var handedOut = 0
        for index in sizes.indices where weights[index] > 0 {
            let share = remaining * weights[index] / totalWeight
            sizes[index] += share
            handedOut += share
        }
        var rest = remaining - handedOut
        for index in sizes.indices where weights[index] > 0 && rest > 0 {
            sizes[index] += 1
            rest -= 1
        }
        return sizes
    }
}
