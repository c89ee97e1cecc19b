import SeatKit
import SeatKitHeadlessShell
import SeatKitWayland

/// The kiosk's window policy, in one place:
/// - windows fill the output, the newest on top and focused (or, `sideBySide`, are laid out
///   left to right in the order they map, the first one focused);
/// - a click or a touch moves focus to the window hit; one that hits no window is logged;
/// - when the focused window goes away, focus goes to the newest remaining window.
///
/// It is both the router's compositor delegate (the end of every responder chain) and the
/// shell's delegate (told when windows map and unmap). Log lines name windows by app id (or
/// title) and the client's pid: `wev[4242]`.
final class Kiosk: CompositorDelegate, HeadlessShellDelegate, InputFilter {
    let router: Router
    let seat: Seat
    let shell: HeadlessShell
    let output: Output
    let sideBySide: Bool

    init(router: Router, seat: Seat, shell: HeadlessShell, output: Output, sideBySide: Bool) {
        self.router = router
        self.seat = seat
        self.shell = shell
        self.output = output
        self.sideBySide = sideBySide
        root = output.root
    }

    /// The output's root (a constant of the output), whose children are the windows.
    private let root: Surface

    // MARK: Windows (HeadlessShellDelegate)

    func shell(_ shell: HeadlessShell, mapped toplevel: Toplevel) {
        // Output space = layout space here: the output sits at the layout's origin.
        let x = sideBySide ? shell.toplevels.dropLast().reduce(0.0) { $0 + $1.surface.frame.size.width } : 0
        toplevel.surface.frame.origin = SurfacePoint(x: x, y: 0)
        output.root.addChild(toplevel.surface)  // on top
        names[ObjectIdentifier(toplevel.surface)] = describe(toplevel)
        let size = toplevel.surface.frame.size
        log("mapped \(name(of: toplevel.surface)) at \(Int(x)),0 size \(Int(size.width))x\(Int(size.height))")
        // Fullscreen, the newest window covers the others: it takes focus.
        if router.firstResponder == nil || !sideBySide { focus(toplevel.surface) }
        // The new window may be under the pointer now; a window moved by the layout tells a
        // finger still down on it where it now is.
        router.refreshPointerFocus()
        router.refreshTouchLocations()
        if let waiting = waitingForWindows, shell.toplevels.count >= waiting.count {
            waitingForWindows = nil
            waiting.action()
        }
    }

    /// Runs `action` once `count` windows are mapped (now, if they are): a replay waits for
    /// its clients, so that no input is lost before they can receive it.
    func whenWindowsMapped(_ count: Int, _ action: @escaping () -> Void) {
        if shell.toplevels.count >= count { action() } else { waitingForWindows = (count, action) }
    }

    private var waitingForWindows: (count: Int, action: () -> Void)?

    func shell(_ shell: HeadlessShell, mappedPopup popup: Surface, frame: SurfaceRect, of toplevel: Toplevel) {
        log("popup of \(name(of: toplevel.surface)) at \(Int(frame.minX)),\(Int(frame.minY)) size \(Int(frame.size.width))x\(Int(frame.size.height))")
    }

    func shell(_ shell: HeadlessShell, unmappedPopup popup: Surface) {
        log("popup closed")
    }

    func shell(_ shell: HeadlessShell, unmapped toplevel: Toplevel) {
        log("unmapped \(name(of: toplevel.surface))")
        names[ObjectIdentifier(toplevel.surface)] = nil
    }

    /// Windows' names, taken when they map: a killed client's pid is gone by the time its
    /// window unmaps.
    private var names: [ObjectIdentifier: String] = [:]

    private func name(of surface: Surface) -> String { names[ObjectIdentifier(surface)] ?? surface.name }

    private func describe(_ toplevel: Toplevel) -> String {
        let name = toplevel.appID.isEmpty ? (toplevel.title.isEmpty ? toplevel.surface.name : toplevel.title) : toplevel.appID
        return toplevel.client.map { "\(name)[\($0.pid)]" } ?? name
    }

    private func focus(_ surface: Surface) {
        // A popup of the window (a menu that grabbed the keyboard) keeps focus.
        if let current = router.firstResponder, current === surface || current.isDescendant(of: surface) { return }
        if router.becomeFirstResponder(surface) { log("focus \(name(of: surface))") }
    }

    // MARK: Click and tap to focus (InputFilter: sees input before routing, takes nothing)

    /// Buttons, touch downs and keys: the router asks the kiosk about no other kind (motions,
    /// most events, cost it nothing).
    var filteredKinds: InputEventKinds { [.pointerButton, .touchDown, .key] }

    func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        switch event.kind {
        case .pointerButton(_, .pressed):
            focusWindow(at: router.pointerLocation, "click")
        case .touchDown(_, let point):
            focusWindow(at: point, "touch")
        case .key(let keycode, .repeated):
            // The keyboard repeats held keys for the compositor's own responders; client
            // surfaces drop these, since clients repeat from wl_keyboard.repeat_info. Said
            // once per hold, with the count at the release.
            if repeatingKey != keycode {
                repeatingKey = keycode
                repeats = 0
                log("key \(keycode) repeats")
            }
            repeats += 1
        case .key(let keycode, .released) where keycode == repeatingKey:
            log("key \(keycode) released after \(repeats) repeats")
            repeatingKey = nil
        default:
            break
        }
        return .pass
    }

    private var repeatingKey: UInt32?
    private var repeats = 0

    private func focusWindow(at point: LayoutPoint, _ what: String) {
        if let window = window(at: point) {
            focus(window)
        } else {
            log("\(what) at \(Int(point.x)),\(Int(point.y)) hits no window")
        }
    }

    /// The window (a child of the output's root) that is or holds `surface`.
    private func window(containing surface: Surface) -> Surface? {
        var node: Surface? = surface
        while let current = node, current.parent !== output.root { node = current.parent }
        return node
    }

    /// The window (a child of the output's root) holding a layout-space point. Each surface's
    /// parent is read once (a weak reference: a retain and a release each time), and the root
    /// is the one kept at start (`output.root` read at each step was another retain and release).
    /// The surface hit is handed back as it came when it is the window (most touches: its
    /// windows have no subsurfaces): walked through a variable from the start, it was retained
    /// and released once more a touch down (issue 25, nineteenth round).
    private func window(at point: LayoutPoint) -> Surface? {
        guard let hit = router.surface(at: point) else { return nil }
        guard var parent = hit.parent else { return nil }
        if parent === root { return hit }
        while let above = parent.parent {
            if above === root { return parent }
            parent = above
        }
        return nil
    }

    // MARK: The three-finger switch (a compositor gesture that follows the fingers)

    /// Three fingers swiped left or right on the touchscreen switch windows,
    /// KWin-style: while the fingers move the switch follows them ("switch left 0.4", in
    /// tenths of the way to the commit threshold; a real compositor slides the windows by as
    /// much), a lift past the threshold commits ("switched to APP": left raises the window
    /// at the back, right sends the top one to the back), a lift short of it undoes ("switch
    /// undone"). The recognizer takes the fingers from the app (it gets wl_touch.cancel).
    /// Touchpad swipes stay the apps' (zwp_pointer_gestures_v1); a compositor that wants them
    /// adds a ``TouchpadSwipeGestureRecognizer`` with a `commitDistance` the same way.
    ///
    /// The switch fails as soon as the fingers cannot be three: a finger that travels over
    /// 10 mm before the third lands, or a third landing more than 250 ms after the first
    /// (real three-finger swipes land within about 100–150 ms, the first fingers barely
    /// moving). A one-finger drag on an app then stops being shown to the switch after its
    /// first 10 mm, and the router skips the recognizer pass for the rest of it.
    func addWindowSwitcher() {
        let touch = SwipeGestureRecognizer(name: "switch-app", direction: [.left, .right], touches: 3, minimumDistance: 30)
        touch.reportsProgress = true
        touch.maximumTravelUntilAllTouches = 10
        touch.maximumDelayUntilAllTouches = .milliseconds(250)
        // Told every transition, the failures included: every touch of fewer than three
        // fingers fails it when a finger lifts. Those are looked at before `self` is: a use
        // of the unowned `self` is a strong load (`swift_unownedRetainStrong`) and a release,
        // about 140 instructions a failure in the kiosk (issue 25, twelfth round).
        touch.addTarget { [unowned self] r in
            guard r.state != .failed else { return }
            self.followSwitch(r, left: (r as! SwipeGestureRecognizer).recognizedDirection == .left)
        }
        output.addGestureRecognizer(touch)
    }

    /// The tenth of the way last logged, so that the log says each step once.
    private var loggedSwitchStep = -1

    private func followSwitch(_ recognizer: GestureRecognizer, left: Bool) {
        switch recognizer.state {
        case .began, .changed:
            let step = Int((recognizer.progress * 10).rounded(.down))
            if step != loggedSwitchStep {
                loggedSwitchStep = step
                log("switch \(left ? "left" : "right") \(Double(step) / 10)")
            }
        case .ended:
            loggedSwitchStep = -1
            let windows = output.root.children.filter { names[ObjectIdentifier($0)] != nil }
            guard windows.count > 1, let top = windows.last, let back = windows.first else {
                log("switch: no other window")
                return
            }
            if left {
                output.root.addChild(back)
            } else {
                output.root.insertChild(top, at: 0)
            }
            let shown = left ? back : windows[windows.count - 2]
            focus(shown)
            router.refreshPointerFocus()
            log("switched to \(name(of: shown))")
        case .cancelled:
            loggedSwitchStep = -1
            log("switch undone")
        default:
            break
        }
    }

    // MARK: CompositorDelegate

    func router(_ router: Router, capabilitiesChanged capabilities: DeviceCapabilities) {
        seat.capabilities = capabilities
        log("capabilities \(capabilities)")
    }

    func router(_ router: Router, firstResponderAfterRemoving removed: Surface, formerParent: Surface) -> Surface? {
        // A popup closing gives focus back to its window.
        if formerParent !== output.root, let window = window(containing: formerParent) { return window }
        // The newest window still shown; never the one going away (a killed client's
        // wl_surface goes before its xdg_toplevel).
        let next = shell.toplevels.last { $0.surface !== removed && !$0.surface.isDescendant(of: removed) && $0.surface.parent != nil }
        if let next { log("focus \(name(of: next.surface))") }
        return next?.surface
    }
}
