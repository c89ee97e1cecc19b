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
