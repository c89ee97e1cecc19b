import Testing
@testable import SeatKitWayland

@Suite struct SerialLogTests {
    private let a = ClientID(OpaquePointer(bitPattern: 0x1000)!)
    private let b = ClientID(OpaquePointer(bitPattern: 0x2000)!)

    @Test func aSerialIsValidOnlyForTheClientItWasSentTo() {
        let log = SerialLog()
        log.record(7, .pointerEnter, for: a)
        #expect(log.contains(7, for: a, kinds: [.pointerEnter]))
        #expect(!log.contains(7, for: b, kinds: [.pointerEnter]))
        #expect(!log.contains(7, for: a, kinds: [.button]))
        #expect(log.latest(.pointerEnter, for: a) == 7)
        #expect(log.latest(.pointerEnter, for: b) == nil)
    }

    @Test func onlyTheNewestSerialsAreKept() {
        let log = SerialLog(depth: 4)
        for serial in UInt32(1)...6 { log.record(serial, .key, for: a) }
        #expect(!log.contains(2, for: a, kinds: [.key]))
        #expect(log.contains(3, for: a, kinds: [.key]))
        #expect(log.latest(.key, for: a) == 6)
    }

    /// The ring writes every serial at its next slot, filling or full: the newest of a kind
    /// is found both before the ring is full and after it wrapped (the oldest at the next
    /// slot), and a log of depth 0 keeps nothing.
    @Test func theNewestSerialOfAKindIsFoundWhileTheRingFillsAndAfterItWraps() {
        let log = SerialLog(depth: 4)
        log.record(1, .key, for: a)
        log.record(2, .button, for: a)
        log.record(3, .key, for: a)
        #expect(log.latest(.key, for: a) == 3)
        #expect(log.latest(.button, for: a) == 2)
        log.record(4, .button, for: a)
        log.record(5, .key, for: a)
        log.record(6, .button, for: a)
        #expect(log.latest(.key, for: a) == 5)
        #expect(log.latest(.button, for: a) == 6)
        #expect(!log.contains(1, for: a, kinds: [.key]) && !log.contains(2, for: a, kinds: [.button]))
        #expect(log.contains(3, for: a, kinds: [.key]) && log.contains(4, for: a, kinds: [.button]))
        for serial in UInt32(7)...13 { log.record(serial, .key, for: a) }
        #expect(log.latest(.key, for: a) == 13)
        #expect(log.latest(.button, for: a) == nil)
        let empty = SerialLog(depth: 0)
        empty.record(1, .key, for: a)
        empty.record(2, .key, for: a)
        #expect(!empty.contains(1, for: a, kinds: [.key]) && empty.latest(.key, for: a) == nil)
    }

    /// The last client's ring is kept beside the dictionary (a cache): serials recorded for
    /// clients in turn stay each with its own, and a client forgotten and heard from again
    /// starts afresh, not with the cached ring.
    @Test func serialsRecordedForClientsInTurnStayWithEachAndAForgottenClientStartsAfresh() {
        let log = SerialLog()
        log.record(1, .key, for: a)
        log.record(2, .key, for: b)
        log.record(3, .key, for: a)
        #expect(log.contains(1, for: a, kinds: [.key]) && log.contains(3, for: a, kinds: [.key]))
        #expect(!log.contains(2, for: a, kinds: [.key]))
        #expect(log.contains(2, for: b, kinds: [.key]) && !log.contains(3, for: b, kinds: [.key]))
        #expect(log.latest(.key, for: a) == 3)
        #expect(log.latest(.key, for: b) == 2)
        log.forget(a)
        log.record(4, .button, for: a)
        #expect(!log.contains(1, for: a, kinds: [.key]) && !log.contains(3, for: a, kinds: [.key]))
        #expect(log.latest(.key, for: a) == nil)
        #expect(log.latest(.button, for: a) == 4)
        #expect(log.latest(.key, for: b) == 2)
    }

    @Test func aDisconnectedClientsSerialsAreForgotten() {
        let log = SerialLog()
        log.record(9, .button, for: a)
        log.forget(a)
        #expect(!log.contains(9, for: a, kinds: [.button]))
    }
}
