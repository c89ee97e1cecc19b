import Testing
@testable import SeatKit

@Suite("Geometry and outputs")
struct GeometryTests {
    @Test func everyTransformMapsTheUnitSquareOntoItselfAndSwapsAxesWhenItShould() {
        for transform in OutputTransform.allCases {
            var corners = Set<[Double]>()
            for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                let m = transform.mapNormalized(x: u, y: v)
                corners.insert([m.x, m.y])
            }
            #expect(corners == [[0, 0], [1, 0], [0, 1], [1, 1]], "\(transform)")
            #expect(transform.transformedSize(Size(width: 800, height: 480))
                == (transform.swapsAxes ? Size(width: 480, height: 800) : Size(width: 800, height: 480)))
        }
    }

    @Test func rotated180MapsTheNativeTopLeftToTheLogicalBottomRight() {
        let m = OutputTransform.rotated180.mapNormalized(x: 0, y: 0)
        #expect(m.x == 1 && m.y == 1)
        let f = OutputTransform.flipped.mapNormalized(x: 0.25, y: 0.5)
        #expect(f.x == 0.75 && f.y == 0.5)
    }

    @Test func outputLogicalSizeAppliesTransformAndScale() {
        let output = Output(name: "eDP-1", position: LayoutPoint(x: 100, y: 0), modeSize: Size(width: 2560, height: 1600),
                            transform: .rotated270, scale: 2)
        #expect(output.logicalSize == Size(width: 800, height: 1280))
        #expect(output.root.frame == SurfaceRect(x: 0, y: 0, width: 800, height: 1280))
        output.scale = 1
        #expect(output.root.frame.size == Size(width: 1600, height: 2560))
        #expect(output.convert(LayoutPoint(x: 150, y: 10)) == OutputPoint(x: 50, y: 10))
    }

    @Test func layoutFindsTheOutputUnderAPointAndConvertsIntoSurfaces() {
        let router = Router(clock: VirtualClock())
        let left = Output(name: "L", modeSize: Size(width: 100, height: 100))
        let right = Output(name: "R", position: LayoutPoint(x: 100, y: 0), modeSize: Size(width: 100, height: 100))
        router.addOutput(left)
        router.addOutput(right)
        let s = Surface(name: "s", frame: SurfaceRect(x: 10, y: 20, width: 30, height: 30))
        right.root.addChild(s)
        #expect(router.layout.output(at: LayoutPoint(x: 150, y: 50)) === right)
        #expect(router.surface(at: LayoutPoint(x: 115, y: 25)) === s)
        #expect(s.convert(LayoutPoint(x: 115, y: 25)) == SurfacePoint(x: 5, y: 5))
        #expect(s.convertToLayout(SurfacePoint(x: 5, y: 5)) == LayoutPoint(x: 115, y: 25))
        #expect(router.layout.bounds == LayoutRect(x: 0, y: 0, width: 200, height: 100))
    }

    @Test func removingAnOutputDetachesItsSurfaces() {
        let h = Harness()
        let s = h.surface("s", 0, 0, 10, 10, handles: ["began"])
        h.down(0, 5, 5)
        h.router.removeOutput(h.output)
        #expect(!s.isAttached)
        #expect(h.router.activeTouchCount == 0)
        #expect(h.router.layout.outputs.isEmpty)
    }
}

@Suite("Output lifetime")
struct OutputLifetimeTests {
    @Test func aSurfaceThatOutlivesItsOutputIsDetached() {
        var output: Output? = Output(name: "X", modeSize: Size(width: 10, height: 10))
        let s = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 5, height: 5))
        output?.root.addChild(s)
        // In the output's tree, but not routable: the output is in no router's layout.
        #expect(s.output === output)
        #expect(!s.isAttached)
        output = nil
        #expect(!s.isAttached)
        #expect(s.output == nil)
        #expect(s.parent == nil)
    }
}
