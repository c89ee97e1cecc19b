import CSeatKitWLCS
import Testing

extension EndToEndTests {
    /// The wlcs integration's descriptor (which extensions wlcs may test, and up to which
    /// version) lists exactly the globals the kiosk advertises, which are the ones the
    /// integration's server advertises (the same seat extensions, the headless shell, one
    /// output): wlcs then skips only what SeatKit does not implement, and a global added or
    /// bumped without updating Sources/CSeatKitWLCS/wlcs.c fails here.
    @Test func theWLCSDescriptorListsExactlyTheAdvertisedGlobals() throws {
        let session = try KioskSession()
        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        var advertised: [String: UInt32] = [:]
        for (name, global) in wire.globals { advertised[name] = global.version }
        var described: [String: UInt32] = [:]
        for i in 0..<seatkit_wlcs_extension_count() {
            described[String(cString: seatkit_wlcs_extension_name(i))] = seatkit_wlcs_extension_version(i)
        }
        #expect(described == advertised)
    }
}
