// kiosk: a headless Wayland compositor built on SeatKit, in about a hundred lines.
//
// Real clients (wev, weston-simple-touch, any xdg-shell app) connect to it and get input
// routed by SeatKit's router to the window under the finger or pointer, or to the focused
// window for keys. The input comes from one of:
//
//   --replay FILE     a `libinput record` file, through real libinput (under umockdev),
//                     played at its recorded pace once N windows have mapped
//                     (--start-after-windows N, default 0: at once)
//   --libinput        live devices of a udev seat (--seat NAME, default seat0)
//   --script FILE|-   JSON lines of events (ScriptedInputSource.swift), for tests
//
//   kiosk [--socket NAME] [--size WxH] [--scale N] [--layout XKB-LAYOUT | --keymap FILE]
//         [--devices LIBINPUT-SETTINGS] [--side-by-side] [--long-press-click] [--start-blanked]
//         [--sticky-keys] [--slow-keys MS] [--bounce-keys MS] [--touch-hold MS]
//         [--touch-ignore-repeat MS] [--secondary-click MS] [--dwell-click MS] [--mouse-keys]
//         [--locate-pointer] [--map-tablet OUTPUT] [--tablet-region X,Y,W,H] [--tablet-rotate DEG] INPUT
//
// Windows fill the output, the newest on top and focused; --side-by-side lays them out
// left to right instead. Three fingers swiped left or right on the touchscreen switch
// windows, following the fingers: the log says how far ("switch left 0.4"), then
// "switched to APP" past 30 mm or "switch undone" short of it. --devices takes settings for every libinput device, as in
// "accel-profile=flat tap=1". --long-press-click turns a long press into a right click at the
// finger, --start-blanked swallows the touch that wakes the screen, and the cursor's
// visibility follows touch and mouse: SeatKit's kiosk policies, which the wlroots kiosk uses
// through the C API. --keymap takes a keymap file (checked against SeatKitXKB's
// KeymapLimits before xkbcommon compiles it). The accessibility options are SeatKit's
// accessibility filters (Accessibility*.swift in Sources/SeatKit): --sticky-keys
// latches a tapped modifier (clients see it latched), --slow-keys MS counts a key only once
// held MS milliseconds, --bounce-keys MS ignores a key pressed again within MS of its release,
// --touch-hold MS counts a touch only once held MS, --touch-ignore-repeat MS ignores touches
// within MS after a counted one, --secondary-click MS makes holding the primary button MS a
// right click, --dwell-click MS clicks where the pointer rests MS, --mouse-keys drives the
// pointer with the keypad, --locate-pointer logs the pointer's place on a Ctrl tap (GNOME's
// delays: 300 for slow and bounce keys, 1200 for secondary and dwell clicks). Pens:
// --map-tablet OUTPUT puts every tablet's area on that output, --tablet-region X,Y,W,H on
// that rectangle of the layout instead, --tablet-rotate 0|90|180|270 turns it clockwise
// (SeatKit's DeviceMapping, set for each tablet as it is announced). Nothing is drawn: buffers are released as soon
// as they arrive. Everything runs on one thread, the Wayland event loop's.
import Foundation
import SeatKit
import SeatKitLibinput
import SeatKitHeadlessShell
import SeatKitWayland
import SeatKitXKB

/// Log lines on stdout are the kiosk's interface to scripts and tests ("mapped ...").
///
/// Written with C's `puts` (the line and a newline, to stdout's buffer, under its lock, as
/// `print` writes them), then flushed as before: the same bytes, where `print` boxed the line
/// in an array of `Any` and cast it back before writing it (~1,400 instructions a line in
/// the Swift runtime; the touchscreen recording logs one, "cursor invisible: touch": 7 a
/// frame of libswiftCore's own code; issue 25, nineteenth round). A line holding a NUL,
/// which `puts` would cut there (none of the kiosk's does: Wayland's strings cannot hold
/// one), is printed.
func log(_ line: String) {
    if line.utf8.contains(0) { print(line) } else { puts(line) }
    fflush(nil)
}

// 1. Options: `--name value`, or a flag alone. Anything else is an error, not ignored.
let usage = "usage: kiosk [--socket NAME] [--size WxH] [--scale N] [--layout XKB-LAYOUT | --keymap FILE] [--devices SETTINGS] [--long-press-click] [--start-blanked]"
    + " [--sticky-keys] [--slow-keys MS] [--bounce-keys MS] [--touch-hold MS] [--touch-ignore-repeat MS]"
    + " [--secondary-click MS] [--dwell-click MS] [--mouse-keys] [--locate-pointer]"
    + " [--map-tablet OUTPUT] [--tablet-region X,Y,W,H] [--tablet-rotate DEG]"
    + " [--side-by-side] [--virtual-clock] (--replay FILE [--start-after-windows N] | --libinput [--seat NAME] | --script FILE|-)"
let valueOptions: Set<String> = ["socket", "size", "scale", "layout", "keymap", "devices", "replay", "start-after-windows", "seat", "script",
                                  "slow-keys", "bounce-keys", "touch-hold", "touch-ignore-repeat", "secondary-click", "dwell-click",
                                  "map-tablet", "tablet-region", "tablet-rotate"]
let flagOptions: Set<String> = ["libinput", "side-by-side", "help", "long-press-click", "start-blanked", "sticky-keys",
                                "mouse-keys", "locate-pointer", "virtual-clock"]

func fail(_ message: String) -> Never {
    log("kiosk: \(message)\n\(usage)")
    exit(2)
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    guard argument.hasPrefix("--") else { fail("unexpected argument \(argument)") }
    let name = String(argument.dropFirst(2))
    if flagOptions.contains(name) {
        options[name] = ""
    } else if valueOptions.contains(name) {
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
        options[name] = value
    } else {
        fail("unknown option \(argument)")
    }
}
if options["help"] != nil {
    log(usage)
    exit(0)
}
let inputSources = ["replay", "libinput", "script"].filter { options[$0] != nil }
if inputSources.count > 1 { fail("choose one input source, not --\(inputSources.joined(separator: " and --"))") }
if options["start-after-windows"] != nil, options["replay"] == nil { fail("--start-after-windows applies only with --replay") }
if options["seat"] != nil, options["libinput"] == nil { fail("--seat applies only with --libinput") }
if options["devices"] != nil, options["replay"] == nil, options["libinput"] == nil {
    fail("--devices applies only with --replay or --libinput")
}
if options["layout"] != nil, options["keymap"] != nil { fail("--layout and --keymap exclude each other") }

/// "1920x1080": two positive whole numbers of pixels, at most 16384 each.
func parseSize(_ text: String) -> Size? {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
          (1...16384).contains(width), (1...16384).contains(height) else { return nil }
    return Size(width: Double(width), height: Double(height))
}
var outputSize = Size(width: 1920, height: 1080)
if let text = options["size"] {
    guard let size = parseSize(text) else {
        fail("--size takes WIDTHxHEIGHT in pixels, each 1 to 16384, like 1920x1080 (got \"\(text)\")")
    }
    outputSize = size
}
/// An accessibility delay: whole milliseconds, 1 to 60000.
func parseDelay(_ name: String, in options: [String: String]) -> TimeSpan? {
    guard let text = options[name] else { return nil }
    guard let ms = Int64(text), (1...60_000).contains(ms) else { fail("--\(name) takes milliseconds from 1 to 60000 (got \"\(text)\")") }
    return .milliseconds(ms)
}
let slowKeysDelay = parseDelay("slow-keys", in: options)
let bounceKeysDelay = parseDelay("bounce-keys", in: options)
let touchHold = parseDelay("touch-hold", in: options)
let touchIgnoreRepeat = parseDelay("touch-ignore-repeat", in: options)
let secondaryClickDelay = parseDelay("secondary-click", in: options)
let dwellClickDelay = parseDelay("dwell-click", in: options)
var outputScale = 1.0
if let text = options["scale"] {
    guard let scale = Int(text), (1...4).contains(scale) else { fail("--scale takes a whole number from 1 to 4 (got \"\(text)\")") }
    outputScale = Double(scale)
}

// Pens: where every tablet's area goes.
var tabletMapping: DeviceMapping?
if options["map-tablet"] != nil || options["tablet-region"] != nil || options["tablet-rotate"] != nil {
    var mapping = DeviceMapping(output: options["map-tablet"])
    if let text = options["tablet-region"] {
        let v = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }
        guard v.count == 4, v.allSatisfy(\.isFinite), v[2] > 0, v[3] > 0 else {
            fail("--tablet-region takes X,Y,WIDTH,HEIGHT in layout units, the size positive (got \"\(text)\")")
        }
        mapping.region = LayoutRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }
    if let text = options["tablet-rotate"] {
        guard let degrees = Int(text), let rotation = DeviceRotation(degrees: degrees) else {
            fail("--tablet-rotate takes 0, 90, 180 or 270 (degrees clockwise; got \"\(text)\")")
        }
        mapping.rotation = rotation
    }
    tabletMapping = mapping
}

/// Maps each tablet to `mapping` when it is announced (a rule by its name, so touchscreens
/// keep theirs).
final class TabletMapper: InputSpy {
    let mapping: DeviceMapping
    init(_ mapping: DeviceMapping) { self.mapping = mapping }
    /// Announcements only: the router calls it for no other event.
    var observedKinds: InputEventKinds { .deviceAdded }
    func observe(_ event: InputEvent, consumed: Bool, router: Router) {
        guard case .deviceAdded(let info) = event.kind, info.capabilities.contains(.tabletTool),
              router.deviceMappings.first(where: { $0.deviceName == info.name })?.mapping != mapping else { return }
        router.setDeviceMapping(mapping, forDevicesNamed: info.name)
        log("tablet \(info.name) mapped")
    }
}

do {
    // 2. The Wayland display: a socket in $XDG_RUNTIME_DIR and the event loop.
    let display = try WaylandDisplay(socketName: options["socket"])

    // 3. SeatKit's router, on the event loop's clock, with one output as the root of the tree.
    //    --virtual-clock (for tests): the router's clock moves only when the script says
    //    {"type": "advance-clock", "ms": N}.
    let virtualClock = options["virtual-clock"] == nil ? nil : VirtualClock(now: display.clock.now)
    let router = Router(clock: virtualClock ?? display.clock)
    let output = Output(name: "HEADLESS-1", modeSize: outputSize, scale: outputScale)
    router.addOutput(output)
    if let name = tabletMapping?.output, name != output.name { throw KioskError("--map-tablet: no output named \(name) (the kiosk's is \(output.name))") }
    let tabletMapper = tabletMapping.map(TabletMapper.init)
    if let tabletMapper { router.addSpy(tabletMapper) }

    // 4. The keyboard: xkbcommon turns keycodes into keysyms, text and modifiers for the
    //    router, and the same object gives clients their keymap (a sealed memfd) and repeat
    //    info, so the modifiers clients get always match the keymap they were sent.
    //    A keymap file is configuration, untrusted: Keymap checks it against KeymapLimits first.
    let keymap = try options["keymap"].map { try Keymap(contentsOfFile: $0) }
        ?? Keymap(names: KeymapNames(layout: options["layout"] ?? "us"))
    let keyboard = Keyboard(keymap: keymap)
    keyboard.attach(to: router)

    // 5. The seat clients bind. Virtual keyboards (wtype, on-screen keyboards) and input
    //    methods may type into the focused window; the keymaps they upload are checked
    //    against KeymapLimits before xkbcommon sees them.
    let seat = Seat(display: display, router: router, keymap: keyboard,
                    extensions: SeatExtensions.all.union([.virtualKeyboard, .inputMethod, .virtualPointer]))
    seat.virtualKeymapRejected = { pid, error in log("virtual keyboard of pid \(pid) refused: \(error)") }
    keyboard.keymapDidChange = { [unowned seat] _ in seat.keymapDidChange() }
    // A real compositor would draw this surface at the pointer; the kiosk only reports it.
    seat.cursorChanged = { cursor in
        log(cursor.map { "cursor \($0.surfaceDescription) hotspot \($0.hotspotX),\($0.hotspotY)" } ?? "cursor hidden")
    }
    seat.penCursorChanged = { pen in
        log(pen.image.map { "pen cursor \($0.surfaceDescription) hotspot \($0.hotspotX),\($0.hotspotY)" } ?? "pen cursor hidden")
    }
    // A real compositor would show these on an on-screen display of the pad.
    seat.padFeedbackChanged = { feedback in
        log("pad \(feedback.device.rawValue) \(feedback.control) feedback \"\(feedback.description)\"")
    }

    // 6. The globals clients need to show a window: wl_compositor, wl_shm, xdg_wm_base...
    let shell = HeadlessShell(display: display, seat: seat)
    shell.advertise(output)
    // Session lock, idle notification and inhibition, cursor shapes, data control and
    // activation (KioskProtocols.swift).
    let protocols = KioskProtocols(display: display, seat: seat, shell: shell)
    let sideBySide = options["side-by-side"] != nil
    if !sideBySide {
        // Every window is told to fill the output, fullscreen (no decorations).
        let logical = output.root.frame.size  // the mode divided by the scale
        shell.suggestedToplevelSize = (Int32(logical.width), Int32(logical.height))
        shell.toplevelsAreFullscreen = true
    }

    // 7. The policy: where windows go and who gets keyboard focus.
    let kiosk = Kiosk(router: router, seat: seat, shell: shell, output: output, sideBySide: sideBySide)
    router.delegate = kiosk
    // Touch-kiosk behaviour is the library's (KioskPolicies.swift). The wake filter first:
    // no other filter acts on the input that wakes the screen.
    let wake = WakeTouchFilter(isBlanked: options["start-blanked"] != nil) { log("screen woke") }
    router.addFilter(wake)
    // Accessibility next, before the kiosk's own shortcuts: touches are held or ignored
    // first, then bounces dropped, then slow keys wait, then sticky keys latch what is left.
    let touchAccommodations = touchHold == nil && touchIgnoreRepeat == nil ? nil
        : TouchAccommodations(holdDuration: touchHold, ignoreRepeat: touchIgnoreRepeat)
    touchAccommodations?.onHold = { (_: TouchID, point: LayoutPoint, outcome: TouchAccommodations.HoldOutcome) in log("touch hold \(outcome) at \(Int(point.x)),\(Int(point.y))") }
    let bounceKeys = bounceKeysDelay.map { BounceKeys(delay: $0) }
    bounceKeys?.onBounce = { log("bounce key \($0) ignored") }
    let slowKeys = slowKeysDelay.map { SlowKeys(delay: $0) }
    slowKeys?.onKey = { key, outcome in log("slow key \(key) \(outcome)") }
    let stickyKeys = options["sticky-keys"] == nil ? nil : StickyKeys()
    stickyKeys?.onModifiersChange = { [unowned seat] in seat.sendModifiers($0) }
    stickyKeys?.onStateChange = { latched, locked in log("sticky keys latched [\(latched)] locked [\(locked)]") }
    let secondaryClick = secondaryClickDelay.map { SimulatedSecondaryClick(delay: $0) }
    secondaryClick?.onClick = { log("simulated secondary click at \(Int($0.x)),\(Int($0.y))") }
    let dwellClick = dwellClickDelay.map { DwellClick(delay: $0) }
    dwellClick?.onClick = { log("dwell click at \(Int($0.x)),\(Int($0.y))") }
    let mouseKeys = options["mouse-keys"] == nil ? nil : MouseKeys()
    let locatePointer = options["locate-pointer"] == nil ? nil : LocatePointer { log("pointer at \(Int($0.x)),\(Int($0.y))") }
    let accessibility: [(any InputFilter)?] = [touchAccommodations, bounceKeys, slowKeys, stickyKeys,
                                               secondaryClick, dwellClick, mouseKeys, locatePointer]
    for filter in accessibility {
        if let filter { router.addFilter(filter) }
    }
    router.addFilter(kiosk)
    let cursorVisibility = CursorVisibility { log($0 ? "cursor visible: mouse" : "cursor invisible: touch") }
    router.addSpy(cursorVisibility)
    let longPress = options["long-press-click"] == nil ? nil : LongPressAsSecondaryClick()
    longPress?.attach(to: output)
    longPress?.onClick = { log("secondary click at \(Int($0.x)),\(Int($0.y))") }
    shell.delegate = kiosk
    // Panels and on-screen keyboards (layer-shell): the shell places and stacks them.
    shell.layerSurfaceMapped = { surface, namespace, layer in
        let f = surface.frame
        log("layer surface \(namespace) mapped on \(layer) at \(Int(f.minX)),\(Int(f.minY)) size \(Int(f.size.width))x\(Int(f.size.height))")
    }
    shell.layerSurfaceUnmapped = { _ in log("layer surface unmapped") }
    // Three fingers left or right switch windows, following the fingers (Kiosk.swift).
    kiosk.addWindowSwitcher()

    // 8. Input. Every source injects through the seat, which closes touch frames per client.
    let devices = try options["devices"].map { try DeviceConfiguration(commandLineForm: $0) }
    var script: ScriptedInputSource?
    if let path = options["replay"] {
        guard let windows = Int(options["start-after-windows"] ?? "0"), windows >= 0 else {
            throw KioskError("--start-after-windows takes a number of windows")
        }
        let replay = try ReplayInputSource(recordingPath: path, configuration: devices)
        replay.finished = { log("replay ended") }
        // The devices now, so clients see the seat's capabilities when they connect; the
        // input once the clients are there to receive it.
        replay.addDevices(to: seat)
        kiosk.whenWindowsMapped(windows) {
            log("replay started")
            replay.play(into: seat, clock: display.clock)
        }
    } else if options["libinput"] != nil {
        let backend = try LibinputBackend(seat: options["seat"] ?? "seat0", opener: DirectDeviceOpener())
        backend.configuration = { _ in devices }
        display.watch(backend, deliveringTo: seat)
    } else if let path = options["script"] {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw KioskError("cannot open \(path): \(String(cString: strerror(errno)))") }
        script = ScriptedInputSource(fileDescriptor: fd, clock: router.clock)
        script?.placeNormalized = { [unowned router] x, y, device in router.layoutPoint(fromNormalized: x, y, device: device) }
        script?.advanceClock = virtualClock.map { clock in { clock.advance(by: .milliseconds($0)) } }
        script?.finished = { log("script ended") }
        script?.start(into: seat, on: display)
    } else {
        log("kiosk: no input source (--replay FILE, --libinput or --script FILE): clients will get no input")
    }

    // 9. Run until killed.
    log("listening on \(display.socketName)")
    display.run()
    withExtendedLifetime((kiosk, script, wake, cursorVisibility, longPress)) {}
    withExtendedLifetime(accessibility) {}
    withExtendedLifetime(protocols) {}
    withExtendedLifetime(tabletMapper) {}
} catch {
    log("kiosk: \(error)")
    exit(1)
}

struct KioskError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
