import SeatKit
import SeatKitWayland
import Testing

@Suite struct TouchPointerEmulationTests {
    typealias A = TouchPointerEmulation.Action

    @Test func theFirstFingerEntersMovesPressesReleasesAndLeaves() {
        var emulation = TouchPointerEmulation()
        var actions: [A] = []
        emulation.touchDown(TouchID(3), at: SurfacePoint(x: 10, y: 20), pointerIsHere: false) { actions.append($0) }
        emulation.touchDown(TouchID(4), at: SurfacePoint(x: 90, y: 90), pointerIsHere: false) { actions.append($0) }  // ignored
        emulation.touchMoved(TouchID(4), to: SurfacePoint(x: 91, y: 91)) { actions.append($0) }                       // ignored
        emulation.touchMoved(TouchID(3), to: SurfacePoint(x: 12, y: 22)) { actions.append($0) }
        emulation.touchUp(TouchID(4)) { actions.append($0) }                                                         // ignored
        emulation.touchUp(TouchID(3)) { actions.append($0) }
        #expect(actions == [.enter(SurfacePoint(x: 10, y: 20)), .press, .motion(SurfacePoint(x: 12, y: 22)), .release, .leave])
        #expect(!emulation.isActive)
    }

    @Test func withThePointerAlreadyThereItMovesAndNeverLeaves() {
        var emulation = TouchPointerEmulation()
        var actions: [A] = []
        emulation.touchDown(TouchID(0), at: SurfacePoint(x: 5, y: 6), pointerIsHere: true) { actions.append($0) }
        emulation.touchCancelled { actions.append($0) }
        emulation.touchCancelled { actions.append($0) }  // nothing left to cancel
        #expect(actions == [.motion(SurfacePoint(x: 5, y: 6)), .press, .release])
    }
}
