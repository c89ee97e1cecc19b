import Foundation
import Glibc
import Testing

extension KioskSession {
    /// A kiosk with its emulated devices, and a wire client that has read the registry and
    /// bound `wl_seat` (version 8): what most protocol tests start from.
    static func withSeatClient(sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (session: KioskSession, wire: WireClient, seat: UInt32) {
        let session = try KioskSession(sourceLocation: sourceLocation)
        try session.addDevices(sourceLocation: sourceLocation)
        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        let seat = try wire.bind("wl_seat", version: 8)
        return (session, wire, seat)
    }
}

extension WireClient {
    /// `wl_seat.get_pointer`: the new `wl_pointer`'s ID.
    func getPointer(_ seat: UInt32) -> UInt32 { getDevice(seat, opcode: 0) }
    /// `wl_seat.get_keyboard`: the new `wl_keyboard`'s ID.
    func getKeyboard(_ seat: UInt32) -> UInt32 { getDevice(seat, opcode: 1) }
    /// `wl_seat.get_touch`: the new `wl_touch`'s ID.
    func getTouch(_ seat: UInt32) -> UInt32 { getDevice(seat, opcode: 2) }

    private func getDevice(_ seat: UInt32, opcode: UInt16) -> UInt32 {
        let id = newID()
        send(seat, opcode, [id])
        return id
    }
}
