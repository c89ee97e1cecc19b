import Foundation
import SeatKit
import SeatKitWayland
import Testing

/// An input method's commits (zwp_input_method_v2.commit) reach the focused text input even
/// when they quote an older serial than the dones sent: the protocol says the compositor "must
/// proceed as normal". squeekboard hits this whenever a key is tapped while the app is still
/// reporting the text of the previous one (a done on its way); dropping such a commit lost
/// every such key (seen in CI under load). Real wire clients on an in-process display.
extension EmbeddingTests {
    @Test func anInputMethodsCommitQuotingAnOlderSerialStillReachesTheTextInput() throws {
        let d = try InProcessDisplay(hardware: [.keyboard, .pointer], extensions: [.textInput, .inputMethod])
        defer { d.close() }
        let app = try d.connect()
        let appSeat = try app.bind("wl_seat", version: 8)
        let window = try d.window(of: app, frame: SurfaceRect(x: 0, y: 0, width: 200, height: 100))
        #expect(d.router.becomeFirstResponder(window.node))
        let textInputs = try app.bind("zwp_text_input_manager_v3", version: 1)
        let input = app.newID()
        app.send(textInputs, 1, [input, appSeat])  // get_text_input
        app.send(input, 1, [])  // enable
        app.send(input, 7, [])  // commit
        #expect(app.sync())

        let im = try d.connect()
        let imSeat = try im.bind("wl_seat", version: 8)
        let manager = try im.bind("zwp_input_method_manager_v2", version: 1)
        let method = im.newID()
        im.send(manager, 0, [imSeat, method])  // get_input_method
        var dones: UInt32 = 0
        let activation = im.drain { message in
            guard message.object == method else { return nil }
            if message.opcode == 5 { dones += 1 }
            return ["activate", "deactivate", "surrounding", "cause", "content", "done"][Int(message.opcode)]
        }
        #expect(activation.first == "activate" && activation.last == "done", "\(activation)")
        let seen = dones
        let appText = { app.drain { $0.object == input && $0.opcode == 3 ? "commit " + $0.string(at: 0) : nil } }
        _ = appText()

        // Up to date: the key's text arrives.
        im.send(method, 0, ["a"])  // commit_string
        im.send(method, 3, [seen])  // commit(serial)
        #expect(im.sync())
        #expect(appText() == ["commit a"])

        // The app reports its new text: the compositor sends the input method another done...
        app.send(input, 3, ["a", UInt32(1), UInt32(1)])  // set_surrounding_text
        app.send(input, 7, [])  // commit
        #expect(app.sync())
        let later = im.drain { $0.object == method && $0.opcode == 5 ? "done" : nil }
        #expect(later == ["done"], "the app's new state never reached the input method: \(later)")
        // ...but the input method commits the next key with the serial it had before that
        // done (it was already typing): the text still arrives, once.
        im.send(method, 0, ["b"])
        im.send(method, 3, [seen])
        #expect(im.sync())
        #expect(appText() == ["commit b"])

        // A commit with nothing pending sends the app nothing more.
        im.send(method, 3, [seen &+ 1])
        #expect(im.sync())
        #expect(appText() == [])
    }
}
