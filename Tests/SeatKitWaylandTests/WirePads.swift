import Foundation

/// What a WireClient with a tablet seat heard of pads (tablet-unstable-v2): the objects the
/// compositor made (pads, their groups, rings and strips), the enters, each group's
/// mode_switch serials and the buttons, for tests that answer with set_feedback.
///
/// One file for two test targets: SeatKitWaylandTests (the Swift kiosk) has it here, and
/// CSeatKitTests (the wlroots kiosk) through a symbolic link to it, so it needs nothing of
/// either target but the WireClient (WireClientCore.swift, shared the same way).
final class WirePads {
    let tabletSeat: UInt32
    private(set) var pads: [UInt32] = []
    /// Group object → its pad.
    private(set) var groups: [(group: UInt32, pad: UInt32)] = []
    private(set) var rings: [UInt32] = []
    private(set) var strips: [UInt32] = []
    private(set) var enters: [(pad: UInt32, serial: UInt32, surface: UInt32)] = []
    /// zwp_tablet_pad_group_v2.mode_switch: group, serial, mode.
    private(set) var modeSwitches: [(group: UInt32, serial: UInt32, mode: UInt32)] = []
    /// zwp_tablet_pad_v2.button: pad, button, state.
    private(set) var buttons: [(pad: UInt32, button: UInt32, state: UInt32)] = []

    /// Binds zwp_tablet_manager_v2 and gets `seat`'s tablet seat (its registry read already),
    /// and from then on notes every message `wire` reads (its observer).
    init(_ wire: WireClient, seat: UInt32) throws {
        let manager = try wire.bind("zwp_tablet_manager_v2", version: 1)
        tabletSeat = wire.newID()
        wire.send(manager, 0, [tabletSeat, seat])  // get_tablet_seat(id, seat)
        wire.observer = { [unowned self] in self.observe($0) }
    }

    /// Notes `message` if it is about pads (the wire client's observer calls it).
    private func observe(_ message: WireClient.Message) {
        let o = message.object
        if o == tabletSeat && message.opcode == 2 {  // pad_added
            pads.append(message.uint(at: 0))
        } else if pads.contains(o) {
            switch message.opcode {
            case 0: groups.append((message.uint(at: 0), o))  // group
            case 4: buttons.append((o, message.uint(at: 1), message.uint(at: 2)))  // button(time, button, state)
            case 5: enters.append((o, message.uint(at: 0), message.uint(at: 2)))  // enter(serial, tablet, surface)
            default: break
            }
        } else if groups.contains(where: { $0.group == o }) {
            switch message.opcode {
            case 1: rings.append(message.uint(at: 0))  // ring
            case 2: strips.append(message.uint(at: 0))  // strip
            case 5: modeSwitches.append((o, message.uint(at: 1), message.uint(at: 2)))  // mode_switch(time, serial, mode)
            default: break
            }
        }
    }

    /// Reads until `done` holds (at once if it already does, from messages an earlier read
    /// took): false on timeout.
    func wait(_ wire: WireClient, timeout: Duration = WireClient.timeout, until done: () -> Bool) -> Bool {
        done() || wire.read(until: { _ in done() }, timeout: timeout) != nil
    }

    /// The serial of the last mode_switch of the pad's first group.
    var lastModeSerial: UInt32? { modeSwitches.last { $0.group == groups.first?.group }?.serial }

    /// zwp_tablet_pad_v2.set_feedback(button, description, serial).
    func setButtonFeedback(_ wire: WireClient, button: UInt32, _ description: String, serial: UInt32) {
        guard let pad = pads.first else { return }
        wire.send(pad, 0, [button, description, serial])
    }

    /// zwp_tablet_pad_ring_v2.set_feedback(description, serial) for the first ring.
    func setRingFeedback(_ wire: WireClient, _ description: String, serial: UInt32) {
        guard let ring = rings.first else { return }
        wire.send(ring, 0, [description, serial])
    }

    /// zwp_tablet_pad_strip_v2.set_feedback(description, serial) for the first strip.
    func setStripFeedback(_ wire: WireClient, _ description: String, serial: UInt32) {
        guard let strip = strips.first else { return }
        wire.send(strip, 0, [description, serial])
    }
}
