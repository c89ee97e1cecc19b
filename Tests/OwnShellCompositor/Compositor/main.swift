// A Swift compositor with its own wl_display and its own xdg-shell (the C target beside this
// one defines `xdg_wm_base_interface` and the rest, as any real compositor's shell does),
// using SeatKitWayland's seat for input. That this program links at all is the point: the
// seat carries no second copy of the shell's protocol code. It prints what it advertised.
import COwnShell
import SeatKit
import SeatKitWayland
import SeatKitXKB

guard let raw = own_display_create() else { fatalError("own-shell-compositor: no wl_display") }
let display = WaylandDisplay(wrapping: raw)
let router = Router(clock: display.clock)
let keyboard = Keyboard(keymap: try Keymap(names: KeymapNames(layout: "us")))
keyboard.attach(to: router)
let seat = Seat(display: display, router: router, keymap: keyboard)
guard own_shell_advertise(raw) else { fatalError("own-shell-compositor: no xdg_wm_base global") }
print("seat \(seat.name) beside the compositor's own \(String(cString: own_xdg_wm_base_name()))")
