import CWaylandServer
import SeatKit
@testable import SeatKitWayland
import Testing

/// The seat's queue of clients owed a `wl_touch.frame` keeps the usual client between frames
/// (no retain and release per frame, issue 25, eleventh round): these pin what it is owed and
/// how long it keeps a client record, the seat gone included (the router keeps the queue).
@Suite struct TouchFrameQueueTests {
    private static func record(_ address: Int) -> SeatClient { SeatClient(id: ClientID(OpaquePointer(bitPattern: address)!)) }

    @Test func aClientIsOwedAFrameOnlyAfterATouchAndTheFirstIsKeptUntilAnotherTakesItsPlace() {
        let router = Router(clock: VirtualClock())
        let queue = TouchFrameQueue()
        var a: SeatClient? = Self.record(0x1000)
        weak var weakA = a
        queue.add(a!)
        queue.add(a!)
        #expect(queue.contains(a!))
        queue.routerDidFinishTouchFrame(router)
        #expect(!queue.contains(a!))
        // Kept between frames though nobody else holds it; owed nothing.
        a = nil
        #expect(weakA != nil)
        #expect(!queue.contains(weakA!))
        queue.add(weakA!)
        #expect(queue.contains(weakA!))
        queue.routerDidFinishTouchFrame(router)
        // Another client, in a frame of its own, takes the first place: the old one goes.
        let b = Self.record(0x2000)
        queue.add(b)
        #expect(weakA == nil)
        #expect(queue.contains(b))
        queue.routerDidFinishTouchFrame(router)
        #expect(!queue.contains(b))
    }

    @Test func clientsOwedAFrameTogetherAreOwedOneEachAndADisconnectedOneIsNotKept() {
        let router = Router(clock: VirtualClock())
        let queue = TouchFrameQueue()
        let a = Self.record(0x1000), b = Self.record(0x2000)
        var c: SeatClient? = Self.record(0x3000)
        weak var weakC = c
        queue.add(a)
        queue.add(b)
        queue.add(c!)
        queue.add(b)
        #expect(queue.contains(a) && queue.contains(b) && queue.contains(c!))
        // The first disconnects mid-frame: the next in order is owed its frame in its place.
        queue.remove(a.id)
        #expect(!queue.contains(a) && queue.contains(b) && queue.contains(c!))
        queue.remove(c!.id)
        c = nil
        #expect(weakC == nil)
        queue.routerDidFinishTouchFrame(router)
        #expect(!queue.contains(a) && !queue.contains(b))
        // A client not owed a frame but kept in the first place is let go of when it disconnects.
        var d: SeatClient? = Self.record(0x4000)
        weak var weakD = d
        queue.add(d!)
        queue.routerDidFinishTouchFrame(router)
        let idD = d!.id
        d = nil
        #expect(weakD != nil)
        queue.remove(idD)
        #expect(weakD == nil)
    }

    /// The usual frame goes to the wl_touch the usual send owed it to (`owedTouch`, issue
    /// 25, nineteenth round): a wl_touch destroyed before the frame ends is not sent it (a
    /// post to a freed resource); the client stays owed its frame, on the general path (to
    /// its wl_touch resources left: none here).
    @Test func aWlTouchDestroyedWhileOwedTheUsualFrameIsNotSentItAndItsClientStaysOwed() {
        let router = Router(clock: VirtualClock())
        let queue = TouchFrameQueue()
        let a = Self.record(0x1000)
        queue.add(a)
        queue.routerDidFinishTouchFrame(router)
        // An address no resource is at: posting to it would crash.
        let gone = OpaquePointer(bitPattern: 0x10)!
        queue.firstIsOwed(touch: gone)
        #expect(queue.contains(a))
        queue.touchResourceDestroyed(gone)
        #expect(queue.contains(a))
        queue.routerDidFinishTouchFrame(router)
        #expect(!queue.contains(a))
    }

    /// Only the client in the first place has a `usualTouch`, and only with exactly one
    /// wl_touch: it follows the first place and the client's resources.
    @Test func onlyTheFirstClientWithExactlyOneWlTouchHasAUsualTouch() {
        let router = Router(clock: VirtualClock())
        let queue = TouchFrameQueue()
        let t1 = OpaquePointer(bitPattern: 0x10)!, t2 = OpaquePointer(bitPattern: 0x20)!
        let a = Self.record(0x1000), b = Self.record(0x2000)
        a.unchecked.touches = [t1]
        b.unchecked.touches = [t2]
        queue.touchesChanged(a)
        #expect(a.unchecked.usualTouch == nil, "not first")
        queue.add(a)
        #expect(a.unchecked.usualTouch == t1)
        a.unchecked.touches = [t1, t2]
        queue.touchesChanged(a)
        #expect(a.unchecked.usualTouch == nil, "two wl_touch resources")
        a.unchecked.touches = [t2]
        queue.touchesChanged(a)
        #expect(a.unchecked.usualTouch == t2)
        // The frame with no resource (the addresses are not resources), then one again.
        a.unchecked.touches = []
        queue.touchesChanged(a)
        #expect(a.unchecked.usualTouch == nil, "no wl_touch")
        queue.routerDidFinishTouchFrame(router)
        a.unchecked.touches = [t1]
        queue.touchesChanged(a)
        #expect(a.unchecked.usualTouch == t1)
        queue.add(b)
        #expect(a.unchecked.usualTouch == nil && b.unchecked.usualTouch == t2, "the first place taken")
        queue.remove(b.id)
        #expect(b.unchecked.usualTouch == nil, "disconnected")
    }

    /// The router keeps the seat's queue after the seat is gone: a client record owed a frame
    /// then (held by nothing else) is still alive when the router ends the frame, and is let
    /// go of with the queue's first place.
    @Test func aClientOwedAFrameWhenItsSeatGoesIsStillThereWhenTheRouterEndsTheFrame() throws {
        let raw = try #require(wl_display_create())
        let router = Router(clock: VirtualClock())
        let queue: TouchFrameQueue
        weak var weakSeat: Seat?
        weak var weakRecord: SeatClient?
        do {
            let display = WaylandDisplay(wrapping: raw)
            do {
                let seat = Seat(display: display, router: router)
                weakSeat = seat
                queue = seat.touchFrames
                let record = Self.record(0x1000)
                weakRecord = record
                record.unchecked.touches = [OpaquePointer(bitPattern: 0x10)!]
                queue.add(record)
                #expect(record.unchecked.usualTouch == OpaquePointer(bitPattern: 0x10))
                // Not a resource: the frame below goes to no wl_touch.
                record.unchecked.touches = []
            }
            #expect(weakSeat == nil)
            #expect(weakRecord != nil)
            // No usual send once the seat is gone (it takes its serial from the seat's display).
            #expect(weakRecord?.unchecked.usualTouch == nil)
            // The router (which keeps the queue) ends the frame with the seat gone.
            queue.routerDidFinishTouchFrame(router)
            #expect(weakRecord.map { !queue.contains($0) } == true)
            let b = Self.record(0x2000)
            b.unchecked.touches = [OpaquePointer(bitPattern: 0x20)!]
            queue.add(b)
            #expect(weakRecord == nil)
            #expect(b.unchecked.usualTouch == nil, "the seat gone")
            b.unchecked.touches = []
            queue.routerDidFinishTouchFrame(router)
        }
        wl_display_destroy(raw)
    }
}
