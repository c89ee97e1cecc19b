import Testing
@testable import SeatKit

/// The router's pool of finished touch records (`TouchRecordPool`, issue 25, nineteenth round):
/// a stack linked through the records themselves, so a record goes back and comes out with no
/// array to make unique. These pin down its order, that a record out of it links to nothing,
/// and that a long pool goes without a nested release per record.
@Suite("Touch record pool")
struct TouchRecordPoolTests {
    @Test func theLastRecordPutBackIsTheFirstTakenAndTakenRecordsLinkToNothing() {
        var pool = TouchRecordPool()
        let first = TouchSequence(), second = TouchSequence(), third = TouchSequence()
        pool.append(first)
        pool.append(second)
        pool.append(third)
        #expect(pool.count == 3)
        #expect(Array(pool).map(ObjectIdentifier.init) == [third, second, first].map(ObjectIdentifier.init))
        let taken = pool.popLast()
        #expect(taken === third)
        #expect(taken?.unchecked.nextPooled == nil, "a routed record must not hold the pool's next")
        #expect(pool.popLast() === second)
        #expect(pool.popLast() === first)
        #expect(first.unchecked.nextPooled == nil)
        #expect(pool.popLast() == nil)
        #expect(pool.count == 0)
    }

    @Test func emptyingThePoolLetsGoOfEveryRecord() {
        var pool = TouchRecordPool()
        weak var kept: TouchSequence?
        do {
            let record = TouchSequence()
            kept = record
            pool.append(record)
            pool.append(TouchSequence())
        }
        #expect(kept != nil)
        pool.removeAll()
        #expect(kept == nil)
        #expect(pool.count == 0)
    }

    /// Released as a list, a pool this long took one nested release per record and overflowed
    /// the test thread's stack; the router's deinit empties it one record at a time.
    @Test func aRouterWhosePoolHoldsManyRecordsGoesWithoutOverflowingTheStack() {
        weak var gone: Router?
        do {
            let router = Router(clock: VirtualClock())
            gone = router
            for _ in 0..<300_000 { router.unchecked.touches.pool.append(TouchSequence()) }
            #expect(router.unchecked.touches.pool.count == 300_001)
        }
        #expect(gone == nil)
    }
}
