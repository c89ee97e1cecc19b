// The code of BuildingAKiosk.md. Every ```swift block of that guide stands here verbatim
// (GuideCodeTests checks it); KioskGuideTests drives it on a virtual clock.
import SeatKit

/// What the kiosk's screen does; the compositor implements it (DPMS, its cursor plane, its
/// app list).
protocol KioskScreen: AnyObject {
    func powerOn()
    func showCursor(_ visible: Bool)
    func showNextApp()
}

/// The four kiosk behaviours, on one router and its output.
final class KioskInput {
    let wake: WakeTouchFilter
    let cursor: CursorVisibility
    let longPress = LongPressAsSecondaryClick(minimumPressDuration: .milliseconds(600))
    let switcher = SwipeGestureRecognizer(name: "switch-app", direction: [.left, .right], touches: 3)

    init(router: Router, output: Output, screen: KioskScreen) {
        // The touch that wakes a blanked screen is swallowed whole: add this filter first,
        // so that no other filter acts on it.
        wake = WakeTouchFilter { [weak screen] in screen?.powerOn() }
        router.addFilter(wake)
        // Hidden when a finger touches down, shown when a real pointer moves: a spy.
        cursor = CursorVisibility { [weak screen] visible in screen?.showCursor(visible) }
        router.addSpy(cursor)
        // A long press anywhere on the output: the app's touch is cancelled, then it gets
        // a right click at the finger.
        longPress.attach(to: output)
        // Three fingers swiped left or right show the next app; the app's touches are
        // cancelled when the swipe is recognized.
        switcher.addTarget { [weak screen] recognizer in
            if recognizer.state == .recognized { screen?.showNextApp() }
        }
        output.addGestureRecognizer(switcher)
    }

    /// The compositor's idle timer fired: blank the panel; the next touch only wakes it.
    func screenWentIdle() { wake.blank() }
}

/// The switch as a compositor gesture that follows the fingers (BuildingAKiosk.md,
/// "Following the fingers").
protocol SlidingKioskScreen: AnyObject {
    func slideApps(by progress: Double)
    func showNextApp()
}

func addFollowingSwitcher(to output: Output, screen: SlidingKioskScreen) -> SwipeGestureRecognizer {
    let switcher = SwipeGestureRecognizer(name: "switch-app", direction: [.left, .right], touches: 3, minimumDistance: 30)
    switcher.reportsProgress = true
    switcher.addTarget { [weak screen] recognizer in
        switch recognizer.state {
        case .began, .changed: screen?.slideApps(by: recognizer.progress)  // 0...1 of 30 mm
        case .ended: screen?.showNextApp()                                  // committed
        case .cancelled: screen?.slideApps(by: 0)                           // undo
        default: break
        }
    }
    output.addGestureRecognizer(switcher)
    return switcher
}
