import Foundation
import SeatKit
import SeatKitWayland
import Testing

/// The input method's popup (issue 23, item 10): a GTK4 entry (zwp_text_input_v3, its text
/// cursor rectangle) and an input method (a wire client) whose candidate list is a
/// zwp_input_popup_surface_v2: the popup is shown just below GTK's text cursor while the
/// input method is active, is told where the cursor is relative to itself, takes the
/// pointer as any surface does, and goes when the entry stops taking text.
extension EndToEndTests {
    @Test func anInputMethodsPopupIsShownBelowTheGTKEntrysTextCursorAndTakesThePointer() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        let (app, widgets) = try GTKApp.launch(in: session)
        let window = try session.waitForWindow("seatkit-gtk")
        let entry = try #require(widgets["entry"]), button = try #require(widgets["button"])
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click())
        try app.output.require({ $0.contains(" -> zwp_text_input_v3@") && $0.contains(".set_cursor_rectangle(") },
                               "GTK never set its text cursor")

        let im = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try im.roundTripRegistry()
        let seat = try im.bind("wl_seat", version: 8)
        let pointer = im.getPointer(seat)
        let compositor = try im.bind("wl_compositor", version: 4)
        let manager = try im.bind("zwp_input_method_manager_v2", version: 1)
        let method = im.newID()
        im.send(manager, 0, [seat, method])  // get_input_method
        _ = try #require(im.read(until: { $0.object == method && $0.opcode == 5 }), "the input method was never activated")  // done

        // A 120 x 40 candidate list.
        let surface = im.newID()
        im.send(compositor, 0, [surface])  // create_surface
        let popup = im.newID()
        im.send(method, 4, [popup, surface])  // get_input_popup_surface
        im.send(surface, 1, [try im.shmBuffer(width: 120, height: 40), UInt32(0), UInt32(0)])  // attach
        im.send(surface, 6, [])  // commit
        let rectangles = im.drain { message in
            guard message.object == popup, message.opcode == 0 else { return nil }  // text_input_rectangle
            return (0..<4).map { String(Int32(bitPattern: message.uint(at: $0))) }.joined(separator: " ")
        }
        // GTK's cursor, in its surface's coordinates (the last it set before the popup came).
        let cursor = try #require(Self.lastCursorRectangle(app.output.text))
        #expect(cursor.height > 0)
        // The popup's top-left is the cursor's bottom-left: the cursor is just above it.
        #expect(rectangles == ["0 \(-cursor.height) \(cursor.width) \(cursor.height)"], "\(rectangles), cursor \(cursor)")

        // It takes the pointer where it is shown, and the click is the input method's.
        let x = window.x + Double(cursor.x) + 60, y = window.y + Double(cursor.y + cursor.height) + 20
        session.send([Script.move(x, y)] + Script.click())
        let enter = try #require(im.read(until: { $0.object == pointer && $0.opcode == 0 }), "the popup never got the pointer")
        #expect(enter.uint(at: 1) == surface)
        #expect(Int32(bitPattern: enter.uint(at: 2)) / 256 == 60 && Int32(bitPattern: enter.uint(at: 3)) / 256 == 20)
        var deactivated = false
        #expect(im.read(until: { message in
            if message.object == method && message.opcode == 1 { deactivated = true }
            return message.object == pointer && message.opcode == 3
        }) != nil, "the popup never got the click")
        // GTK keeps keyboard focus and its text input: the click moved no focus.
        #expect(!deactivated, "the click on the popup deactivated the input method")

        // The entry stops taking text (the button takes GTK's focus): the popup goes, and
        // the pointer at the same place is GTK's again.
        session.send([Script.move(button.centerX, button.centerY)] + Script.click())
        try app.output.require("\nclicked")
        _ = try #require(im.read(until: { $0.object == method && $0.opcode == 1 }), "the input method was never deactivated")
        let mark = app.output.mark
        session.send([Script.move(x, y)])
        try app.output.require({ $0[mark...].contains("wl_pointer@") && $0[mark...].contains(".motion(") },
                               "GTK never got the pointer back where the popup was")
    }

    /// The last `zwp_text_input_v3.set_cursor_rectangle(x, y, width, height)` in a client's
    /// WAYLAND_DEBUG output.
    static func lastCursorRectangle(_ output: String) -> (x: Int32, y: Int32, width: Int32, height: Int32)? {
        guard let line = output.split(separator: "\n").last(where: { $0.contains(" -> zwp_text_input_v3@") && $0.contains(".set_cursor_rectangle(") }),
              let open = line.lastIndex(of: "(") else { return nil }
        let numbers = line[line.index(after: open)...].dropLast().split(separator: ",").compactMap {
            Int32($0.trimmingCharacters(in: .whitespaces))
        }
        return numbers.count == 4 ? (numbers[0], numbers[1], numbers[2], numbers[3]) : nil
    }
}

/// The popup's placement, driven in process: a window in the output's bottom-right corner,
/// its text cursor near the edges; the compositor's nodes are the test's own.
extension EmbeddingTests {
    /// Surface roles of a compositor that shows input-method popups: each wl_surface's node
    /// is made on demand, `popupSize` big (the size its buffer would give).
    final class PopupRoles: WaylandSurfaceRoles {
        unowned let seat: Seat
        var nodes: [OpaquePointer: Surface] = [:]
        var refused: Set<OpaquePointer> = []
        var popupSize = Size(width: 120, height: 40)
        init(seat: Seat) { self.seat = seat }
        func assignCursorRole(to surface: OpaquePointer) -> Bool { true }
        func rectangles(of region: OpaquePointer) -> [SurfaceRect]? { nil }
        func outputResources(for output: Output, client: OpaquePointer) -> [OpaquePointer] { [] }
        func assignInputPopupRole(to surface: OpaquePointer) -> Bool { !refused.contains(surface) }
        func node(forSurface surface: OpaquePointer) -> Surface? {
            if let node = nodes[surface] { return node }
            let node = Surface(name: "popup", frame: SurfaceRect(origin: .zero, size: popupSize),
                               responder: ClientSurfaceResponder(seat: seat, surfaceResource: surface))
            nodes[surface] = node
            return node
        }
    }

    @Test func anInputPopupNearTheOutputsCornerIsMovedLeftAndAboveTheCursorAndHiddenWhenTheTextInputIsDisabled() throws {
        let d = try InProcessDisplay(hardware: [.keyboard, .pointer], extensions: [.textInput, .inputMethod])
        defer { d.close() }
        let roles = PopupRoles(seat: d.seat)
        d.seat.surfaceRoles = roles
        let app = try d.connect()
        let appSeat = try app.bind("wl_seat", version: 8)
        let window = try d.window(of: app, frame: SurfaceRect(x: 600, y: 500, width: 200, height: 100))
        #expect(d.router.becomeFirstResponder(window.node))
        let textInputs = try app.bind("zwp_text_input_manager_v3", version: 1)
        let input = app.newID()
        app.send(textInputs, 1, [input, appSeat])  // get_text_input
        app.send(input, 1, [])  // enable
        app.send(input, 6, [UInt32(150), UInt32(80), UInt32(2), UInt32(16)])  // set_cursor_rectangle
        app.send(input, 7, [])  // commit
        #expect(app.sync())

        let im = try d.connect()
        let imSeat = try im.bind("wl_seat", version: 8)
        let manager = try im.bind("zwp_input_method_manager_v2", version: 1)
        let method = im.newID()
        im.send(manager, 0, [imSeat, method])  // get_input_method
        let compositor = try im.bind("wl_compositor", version: 4)
        let surface = im.newID()
        im.send(compositor, 0, [surface])
        let popup = im.newID()
        im.send(method, 4, [popup, surface])  // get_input_popup_surface
        let events = im.drain { message in
            if message.object == method { return ["activate", "deactivate", nil, nil, nil, "done"][Int(message.opcode)] }
            guard message.object == popup else { return nil }
            return "rectangle " + (0..<4).map { String(Int32(bitPattern: message.uint(at: $0))) }.joined(separator: " ")
        }
        // 120 x 40 below the cursor (150, 96 in the window) would leave the output: it goes
        // left to the output's edge (x 80) and above the cursor (y 80 - 40), and is told the
        // cursor is at (70, 40) from its top-left.
        #expect(events == ["activate", "done", "rectangle 70 40 2 16"], "\(events)")
        let node = try #require(roles.nodes.values.first)
        #expect(node.parent === window.node && node.frame.origin == SurfacePoint(x: 80, y: 40), "\(node.frame)")
        #expect(d.router.surface(at: LayoutPoint(x: 700, y: 560)) === node)
        #expect(!d.router.becomeFirstResponder(node), "a popup takes no keyboard focus")

        // The cursor moves: so does the popup (below it now, there is room).
        app.send(input, 6, [UInt32(10), UInt32(10), UInt32(2), UInt32(16)])
        app.send(input, 7, [])
        #expect(app.sync())
        #expect(node.frame.origin == SurfacePoint(x: 10, y: 26), "\(node.frame)")

        // Disabled, the text input deactivates the input method: its popup goes.
        app.send(input, 2, [])  // disable
        app.send(input, 7, [])
        #expect(app.sync())
        #expect(node.parent == nil)
        #expect(d.router.surface(at: LayoutPoint(x: 620, y: 540)) === window.node)
    }

    @Test func anInputPopupOnASurfaceWithAnotherRoleIsTheRoleError() throws {
        let d = try InProcessDisplay(hardware: [.pointer], extensions: [.textInput, .inputMethod])
        defer { d.close() }
        let roles = PopupRoles(seat: d.seat)
        d.seat.surfaceRoles = roles
        let im = try d.connect()
        let imSeat = try im.bind("wl_seat", version: 8)
        let manager = try im.bind("zwp_input_method_manager_v2", version: 1)
        let method = im.newID()
        im.send(manager, 0, [imSeat, method])
        let compositor = try im.bind("wl_compositor", version: 4)
        let surface = im.newID()
        im.send(compositor, 0, [surface])
        #expect(im.sync())
        roles.refused.insert(try #require(EmbeddingTests.ForeignCompositor.surfaces.last))
        im.send(method, 4, [im.newID(), surface])
        let error = try #require(im.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == method && error.uint(at: 1) == 0, "zwp_input_method_v2.error.role")
    }
}
