import Testing
import SeatKit
import SeatKitReplay

@Suite struct SurfaceLayoutTests {
    @Test func theExampleKioskLayoutBuilds() throws {
        let layout = try SurfaceLayout.parse(contentsOf: SeatkitToolTests.root + "/examples/kiosk.layout")
        #expect(layout.outputs.map(\.name) == ["DSI-1"])
        #expect(layout.outputs[0].transform == .rotated90)
        #expect(layout.surfaces.map(\.name) == ["header", "list", "cancel-button", "ok-button"])
        let router = Router(clock: VirtualClock())
        let surfaces = layout.build(in: router) { _ in PassThroughResponder() }
        #expect(router.layout.outputs[0].logicalSize == Size(width: 480, height: 800))
        #expect(router.surface(at: LayoutPoint(x: 380, y: 730)) === surfaces["ok-button"])
    }

    @Test func nestedSurfacesArePlacedInTheirParentsSpace() throws {
        let layout = try SurfaceLayout.parse("output A 100x100 at 50,0 scale 2\nsurface p 10,10,30x30 in A\nsurface c 5,5,10x10 in p\n", source: "n")
        let router = Router(clock: VirtualClock())
        let surfaces = layout.build(in: router) { _ in PassThroughResponder() }
        #expect(surfaces["c"]?.layoutOrigin == LayoutPoint(x: 65, y: 15))
    }

    @Test func mistakesNameTheLine() {
        let cases: [(String, Int, String)] = [
            ("output A 100x\n", 1, "WIDTHxHEIGHT"),
            ("output A 100x100 transform sideways\n", 1, "unknown transform"),
            ("output A 100x100\nsurface s 0,0,10x10 in B\n", 2, "not an output or an earlier surface"),
            ("output A 100x100\nsurface s 0,0,10x10 in A\nsurface s 0,0,10x10 in A\n", 3, "defined twice"),
            ("output A 100x100\nwindow w\n", 2, "unknown line"),
            ("output A 100x100 scale 0\n", 1, "scale"),
            ("output A 100x100\ntouch pen B\n", 2, "not an output"),
            ("# nothing\n", 0, "no output"),
        ]
        for (text, line, message) in cases {
            do {
                _ = try SurfaceLayout.parse(text, source: "bad.layout")
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.line == line, "\(text)")
                #expect(error.message.contains(message), "\(error)")
            }
        }
    }
}
