/// Where a surface's children can be hit, kept in flat buffers in the parent, so that
/// hit-testing reads contiguous memory instead of visiting every child object.
///
/// Reading a stored property of a class costs a dynamic exclusivity check, so a loop that
/// asks each child for its frame and box pays that twice per child (about 14 ns each, on the
/// benchmark machine). Here each child is six doubles: its frame's origin and its subtree box
/// in its own space, so the containment test is the same arithmetic as
/// `child.subtreeBounds.contains(point - origin)` and gives the same answers to the last bit.
///
/// With many children a uniform grid over their boxes narrows the candidates to those whose
/// box meets the point's cell; each cell lists child indices in stacking order, so it is
/// scanned from the top down and the first hit is the topmost one, as in a plain scan.
///
/// The parent marks the index stale whenever a child is added, removed, reordered, moved or
/// its subtree box changes; it is rebuilt at the next hit-test in its own storage, so a warm
/// tree allocates nothing. The storage is raw memory rather than arrays because reading an
/// array out of a class retains it, and those retains were most of a hit-test in small trees.
/// An index being walked is never rebuilt: if a responder edits the tree mid-walk, the parent
/// starts a fresh index and the walk finishes on the old one, which still owns its children.
final class ChildHitIndex {
    /// Below this many children a scan of the flat entries beats the grid.
    static let gridThreshold = 32
    /// Grid cells per child (about one cell per four children).
    static let childrenPerCell = 4
    /// Cell lists may hold at most this many entries per child before the grid is made
    /// coarser, so that large children over a fine grid cannot blow up memory.
    static let cellEntriesPerChild = 64

    struct Entry {
        var originX, originY: Double
        /// The child's subtree box in its own space; a child with nothing hittable gets an
        /// empty range (min +∞), which holds no point.
        var minX, minY, maxX, maxY: Double

        @inline(__always)
        func local(_ point: SurfacePoint) -> SurfacePoint {
            SurfacePoint(x: point.x - originX, y: point.y - originY)
        }

        @inline(__always)
        func contains(_ local: SurfacePoint) -> Bool {
            local.x >= minX && local.y >= minY && local.x < maxX && local.y < maxY
        }
    }

    /// A growable raw buffer that keeps its memory across rebuilds.
    struct Storage<Element> {
        private(set) var base: UnsafeMutablePointer<Element>?
        private(set) var capacity = 0
        private(set) var count = 0

        /// Makes room for `count` elements, keeping none; allocates only to grow.
        mutating func reset(count: Int, filledWith value: Element) {
            if count > capacity {
                base?.deallocate()
                capacity = Swift.max(count, capacity * 2)
                base = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
            }
            if count > 0 { base!.initialize(repeating: value, count: count) }
            self.count = count
        }

        @inline(__always)
        subscript(i: Int) -> Element {
            get { base![i] }
            nonmutating set { base![i] = newValue }
        }

        /// Adds `element` at the end; allocates only to grow.
        mutating func append(_ element: Element) {
            if count == capacity {
                let newCapacity = Swift.max(16, capacity * 2)
                let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
                if let base {
                    newBase.moveInitialize(from: base, count: count)
                    base.deallocate()
                }
                base = newBase
                capacity = newCapacity
            }
            (base! + count).initialize(to: element)
            count += 1
        }

        mutating func removeAll() { count = 0 }

        func free() { base?.deallocate() }
    }

    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        var isCurrent = false
        /// How many hit-tests are walking this index (more than one when a responder hit-tests
        /// from inside a hit-test).
        var walks = 0
        /// The children as of the last rebuild: owns them, so `children` never dangles (rule 2
        /// of ``Unretained``).
        var members: [Surface] = []
        var children = Storage<Unretained<Surface>>()
        var entries = Storage<Entry>()
        var columns = 0
        var rows = 0
        var gridX = 0.0, gridY = 0.0
        var inverseCellWidth = 0.0, inverseCellHeight = 0.0
        /// `cellStart[c] ..< cellStart[c + 1]` are cell `c`'s entries in `cellChildren`.
        var cellStart = Storage<Int32>()
        var cellChildren = Storage<Int32>()
        /// Where the next entry of each cell goes while filling.
        var cellCursor = Storage<Int32>()
    }

    @exclusivity(unchecked) var unchecked = HotState()

    var isBeingWalked: Bool { unchecked.walks > 0 }

    // The grid, when there are at least `gridThreshold` children.

    deinit {
        unchecked.children.free()
        unchecked.entries.free()
        unchecked.cellStart.free()
        unchecked.cellChildren.free()
        unchecked.cellCursor.free()
    }

    var usesGrid: Bool { unchecked.columns > 0 }

    func invalidate() { unchecked.isCurrent = false }

    /// A child left the parent: the index is stale and owns none of the children any more
    /// (the next hit-test through the parent rebuilds it), so a removed child is not kept
    /// alive until then. Not while it is walked: the walk reads the children `members` keeps.
    func letGoOfMembers() {
        precondition(!isBeingWalked, "an index lets go of its members only when no walk is on it")
        unchecked.isCurrent = false
        unchecked.members.removeAll()
    }

    /// The topmost, deepest surface under `point` (in the parent's space) among the indexed
    /// children's subtrees, or `nil`. The index must be current.
    @inline(__always)
    func topmostHit(at point: SurfacePoint) -> SurfaceHit? {
        unchecked.walks += 1
        defer { unchecked.walks -= 1 }
        let children = self.unchecked.children, entries = self.unchecked.entries, cellChildren = self.unchecked.cellChildren
        let usesGrid = self.usesGrid
        let cell = usesGrid ? cellIndex(of: point) : 0
        let start = usesGrid ? Int(unchecked.cellStart[cell]) : 0
        var k = usesGrid ? Int(unchecked.cellStart[cell + 1]) : entries.count
        while k > start {
            k -= 1
            let i = usesGrid ? Int(cellChildren[k]) : k
            let entry = entries[i]
            let local = entry.local(point)
            // `members` holds the child: the call needs no retain of its own.
            if entry.contains(local), let hit = children[i].with({ $0.hitTestBelowBounds(local) }) {
                return hit
            }
        }
        return nil
    }

    /// Indices of the children whose entries a hit-test at `point` considers, top first:
    /// for tests.
    func candidates(at point: SurfacePoint) -> [Int] {
        guard usesGrid else { return Array((0..<unchecked.entries.count).reversed()) }
        let cell = cellIndex(of: point)
        return (Int(unchecked.cellStart[cell])..<Int(unchecked.cellStart[cell + 1])).reversed().map { Int(unchecked.cellChildren[$0]) }
    }

    // MARK: Building

    func rebuild(from children: [Surface]) {
        precondition(!isBeingWalked, "an index is not rebuilt while it is walked")
        unchecked.members = children
        let n = children.count
        guard n > 0 else {
            self.unchecked.children.removeAll()
            unchecked.entries.removeAll()
            unchecked.columns = 0
            unchecked.rows = 0
            unchecked.isCurrent = true
            return
        }
        self.unchecked.children.reset(count: n, filledWith: Unretained(children[0]))
        let empty = Entry(originX: 0, originY: 0, minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        unchecked.entries.reset(count: n, filledWith: empty)
        var union: (x0: Double, y0: Double, x1: Double, y1: Double)?
        var i = 0
        while i < n {
            let child = children[i]
            self.unchecked.children[i] = Unretained(child)
            let origin = child.frame.origin
            var entry = empty
            entry.originX = origin.x
            entry.originY = origin.y
            if let box = child.unchecked.subtreeBounds {
                entry.minX = box.minX
                entry.minY = box.minY
                entry.maxX = box.maxX
                entry.maxY = box.maxY
                let x0 = origin.x + box.minX, y0 = origin.y + box.minY
                let x1 = origin.x + box.maxX, y1 = origin.y + box.maxY
                if let u = union {
                    union = (Swift.min(u.x0, x0), Swift.min(u.y0, y0), Swift.max(u.x1, x1), Swift.max(u.y1, y1))
                } else {
                    union = (x0, y0, x1, y1)
                }
            }
            unchecked.entries[i] = entry
            i += 1
        }
        unchecked.columns = 0
        unchecked.rows = 0
        if n >= Self.gridThreshold, let union, union.x1 > union.x0, union.y1 > union.y0 {
            buildGrid(over: union)
        }
        unchecked.isCurrent = true
    }

    private func buildGrid(over union: (x0: Double, y0: Double, x1: Double, y1: Double)) {
        let width = union.x1 - union.x0, height = union.y1 - union.y0
        let cells = Double(Swift.max(1, unchecked.entries.count / Self.childrenPerCell))
        var columns = Swift.min(1024, Swift.max(1, Int((cells * width / height).squareRoot().rounded())))
        var rows = Swift.min(1024, Swift.max(1, Int((cells / Double(columns)).rounded())))
        unchecked.gridX = union.x0
        unchecked.gridY = union.y0
        while true {
            self.unchecked.columns = columns
            self.unchecked.rows = rows
            unchecked.inverseCellWidth = Double(columns) / width
            unchecked.inverseCellHeight = Double(rows) / height
            if countCellEntries() <= unchecked.entries.count * Self.cellEntriesPerChild || (columns == 1 && rows == 1) { break }
            columns = Swift.max(1, columns / 2)
            rows = Swift.max(1, rows / 2)
        }
        fillCells()
    }

    /// Makes `cellStart` hold each cell's count, shifted by one; returns the total.
    private func countCellEntries() -> Int {
        unchecked.cellStart.reset(count: unchecked.columns * unchecked.rows + 1, filledWith: 0)
        var total = 0
        forEachCell { _, cell in
            unchecked.cellStart[cell + 1] += 1
            total += 1
        }
        return total
    }

    private func fillCells() {
        let cellCount = unchecked.columns * unchecked.rows
        var c = 0
        while c < cellCount {
            unchecked.cellStart[c + 1] += unchecked.cellStart[c]
            c += 1
        }
        unchecked.cellChildren.reset(count: Int(unchecked.cellStart[cellCount]), filledWith: 0)
        unchecked.cellCursor.reset(count: cellCount, filledWith: 0)
        c = 0
        while c < cellCount {
            unchecked.cellCursor[c] = unchecked.cellStart[c]
            c += 1
        }
        // Filling children in stacking order keeps every cell's list back to front.
        forEachCell { entry, cell in
            unchecked.cellChildren[Int(unchecked.cellCursor[cell])] = Int32(entry)
            unchecked.cellCursor[cell] += 1
        }
    }

    /// Calls `body` with each entry (in stacking order) and each grid cell its box meets:
    /// the one walk that both counting and filling the cells make.
    private func forEachCell(_ body: (_ entry: Int, _ cell: Int) -> Void) {
        var i = 0
        while i < unchecked.entries.count {
            if let range = cellRange(of: unchecked.entries[i]) {
                var row = range.row0
                while row <= range.row1 {
                    var column = range.column0
                    while column <= range.column1 {
                        body(i, row * unchecked.columns + column)
                        column += 1
                    }
                    row += 1
                }
            }
            i += 1
        }
    }

    /// The cells an entry's box meets, widened by a hair so that rounding in the parent-space
    /// sums can never leave out a cell that the exact child-space test would accept.
    private func cellRange(of entry: Entry) -> (column0: Int, row0: Int, column1: Int, row1: Int)? {
        guard entry.maxX > entry.minX, entry.maxY > entry.minY else { return nil }
        let x0 = entry.originX + entry.minX, x1 = entry.originX + entry.maxX
        let y0 = entry.originY + entry.minY, y1 = entry.originY + entry.maxY
        let slackX = 1e-9 * (1 + Swift.abs(x0) + Swift.abs(x1))
        let slackY = 1e-9 * (1 + Swift.abs(y0) + Swift.abs(y1))
        return (column(of: x0 - slackX), row(of: y0 - slackY), column(of: x1 + slackX), row(of: y1 + slackY))
    }

    // Points outside the grid clamp to a border cell: no box holds them, so any candidates
    // are rejected by the exact test. NaN lands in cell 0 the same way.
    @inline(__always)
    private func column(of x: Double) -> Int {
        let f = (x - unchecked.gridX) * unchecked.inverseCellWidth
        if !(f >= 0) { return 0 }
        return f >= Double(unchecked.columns) ? unchecked.columns - 1 : Int(f)
    }

    @inline(__always)
    private func row(of y: Double) -> Int {
        let f = (y - unchecked.gridY) * unchecked.inverseCellHeight
        if !(f >= 0) { return 0 }
        return f >= Double(unchecked.rows) ? unchecked.rows - 1 : Int(f)
    }

    @inline(__always)
    private func cellIndex(of point: SurfacePoint) -> Int {
        row(of: point.y) * unchecked.columns + column(of: point.x)
    }
}
