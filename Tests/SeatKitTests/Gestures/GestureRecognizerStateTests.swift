import Testing
@testable import SeatKit

@Suite struct GestureRecognizerStateTests {
    static let all: [GestureRecognizerState] = [.possible, .began, .changed, .ended, .cancelled, .failed, .recognized]

    @Test func transitionTableAllowsExactlyTheDocumentedMoves() {
        let legal: Set<String> = [
            "possible->began", "possible->recognized", "possible->failed",
            "began->changed", "began->ended", "began->cancelled",
            "changed->changed", "changed->ended", "changed->cancelled",
        ]
        for from in Self.all {
            for to in Self.all {
                let key = "\(from)->\(to)"
                #expect(GestureRecognizerState.canTransition(from: from, to: to) == legal.contains(key), "\(key)")
            }
        }
    }

    @Test func finalStatesAreExactlyTheFourEnds() {
        #expect(Self.all.filter(\.isFinal) == [.ended, .cancelled, .failed, .recognized])
        #expect(Self.all.filter(\.isInProgress) == [.began, .changed])
    }

    @Test func aDetachedRecognizerFollowsTheTableWithoutARouter() {
        let pan = PanGestureRecognizer()
        pan.state = .began
        pan.state = .changed
        pan.state = .changed
        pan.state = .ended
        #expect(pan.state == .ended)
    }

    @Test func anIllegalTransitionTraps() async {
        await #expect(processExitsWith: .failure) {
            let tap = TapGestureRecognizer()
            tap.state = .changed
        }
    }

    @Test func theRouterResetsASettledRecognizerToPossible() {
        let rig = GestureRig()
        let tap = TapGestureRecognizer()
        rig.output.root.addGestureRecognizer(tap)
        rig.watch(tap)
        rig.down(1, 100, 100)
        rig.up(1)
        #expect(rig.log.matching("tap:") == ["tap:recognized"])
        #expect(tap.state == .possible)
        #expect(tap.tapCount == 0)
    }
}
