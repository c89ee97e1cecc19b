// The code of GesturesForEveryDevice.md. Every ```swift block of that guide stands here verbatim
// (GuideCodeTests checks it); GesturesGuideTests drives it on a virtual clock.
import SeatKit

/// The recognizers of the guide's three sections, on the surfaces they name.
final class GuideGestures {
    /// What the guide's actions did.
    final class Effects {
        var moved: [Vector] = []
        var zooms = 0
        var selections = 0
    }
    let effects: Effects
    let setEditing: (Bool) -> Void
    let scroll: PanGestureRecognizer
    let move: PanGestureRecognizer
    let mapZoom: PinchGestureRecognizer
    let taps: ExclusiveGestureRecognizer
    let holdThenDrag: SequenceGestureRecognizer
    let swipe: PanGestureRecognizer

    init(page: Surface, map: Surface, tile: Surface, photo: Surface, list: Surface) {
        let effects = Effects()
        func moveTile(by translation: Vector) { effects.moved.append(translation) }
        func zoom() { effects.zooms += 1 }
        func selectTile() { effects.selections += 1 }

        // A drawing surface: fingers pan the page, the pen draws.
        let scroll = PanGestureRecognizer(name: "scroll")
        scroll.allowedInputKinds = [.touch]
        page.addGestureRecognizer(scroll)

        // A map: a finger, a pen or a mouse drag moves it.
        let move = PanGestureRecognizer(name: "move")
        move.allowedInputKinds = [.touch, .pen, .pointer]
        map.addGestureRecognizer(move)

        // One pinch for two fingers on the screen and for the touchpad.
        let mapZoom = PinchGestureRecognizer(name: "zoom")
        mapZoom.allowedInputKinds = [.touch, .touchpad]
        map.addGestureRecognizer(mapZoom)

        // Hold, then drag: the drag starts only after 400 ms still.
        let hold = LongPressGestureRecognizer(name: "hold", minimumPressDuration: .milliseconds(400))
        let drag = PanGestureRecognizer(name: "drag", minimumDistance: 1)
        let holdThenDrag = hold.sequenced(before: drag, name: "reorder")
        drag.addTarget { _ in moveTile(by: drag.translation) }
        tile.addGestureRecognizer(holdThenDrag)

        // A double tap zooms; a single tap, once it is clearly not a double tap, selects.
        let zoomIn = TapGestureRecognizer(name: "zoom-in", taps: 2)
        let select = TapGestureRecognizer(name: "select")
        let taps = zoomIn.exclusively(before: select, name: "taps")
        taps.addTarget { composite in
            guard composite.state == .recognized, let taps = composite as? ExclusiveGestureRecognizer else { return }
            if taps.winner === zoomIn { zoom() } else { selectTile() }
        }
        tile.addGestureRecognizer(taps)

        // Pinch and pan together.
        let pinch = PinchGestureRecognizer(name: "pinch")
        let pan = PanGestureRecognizer(name: "pan", minimumTouches: 2)
        photo.addGestureRecognizer(pinch.simultaneously(with: pan, name: "transform"))

        // The list's swipe goes before the rows' taps; while the list is being edited, no
        // recognizer of the list or its rows runs and the touches go straight to the clients.
        let swipe = PanGestureRecognizer(name: "swipe-row")
        list.addHighPriorityGestureRecognizer(swipe, including: .all)
        func setEditing(_ editing: Bool) {
            swipe.mask = editing ? .none : .all
        }

        self.effects = effects
        self.scroll = scroll
        self.move = move
        self.mapZoom = mapZoom
        self.taps = taps
        self.holdThenDrag = holdThenDrag
        self.swipe = swipe
        self.setEditing = setEditing
    }
}

/// The guide's relationships and arena rules, on a scroller surface, its output and router.
final class GuideRelationships {
    let across: PanGestureRecognizer
    let along: PanGestureRecognizer
    let edge: ScreenEdgePanGestureRecognizer
    let press: LongPressGestureRecognizer

    init(scroller: Surface, output: Output, router: Router) throws {
        // A scroller that pans on both axes at once: neither pan cancels the other.
        let across = PanGestureRecognizer(name: "across")
        let along = PanGestureRecognizer(name: "along")
        across.cannotCancel(along)
        along.cannotCancel(across)
        scroller.addGestureRecognizer(across)
        scroller.addGestureRecognizer(along)

        // The edge swipe holds the scroller's long press back; if the swipe is abandoned
        // (cancelled), the press goes ahead.
        let edge = ScreenEdgePanGestureRecognizer(name: "edge", edges: .left)
        let press = LongPressGestureRecognizer(name: "press")
        try edge.inhibitUntilCancelled(press)
        edge.cannotCancel(press)
        scroller.addGestureRecognizer(press)
        output.addGestureRecognizer(edge)

        // Flutter's sweep: when the finger lifts, the first recognizer still possible wins.
        router.gestureArenaRules = [.sweepAtEnd]

        self.across = across
        self.along = along
        self.edge = edge
        self.press = press
    }
}
