import CSeatKitSupport
import SeatKit
import SeatKitXKB

// seatkit_keymap_*: xkbcommon keymaps, and the router's keyboard.

@_cdecl("seatkit_keymap_create_from_names")
public func seatkit_keymap_create_from_names(_ rules: UnsafePointer<CChar>?, _ model: UnsafePointer<CChar>?,
                                             _ layout: UnsafePointer<CChar>?, _ variant: UnsafePointer<CChar>?,
                                             _ options: UnsafePointer<CChar>?) -> OpaquePointer? {
    let names = KeymapNames(rules: string(rules, or: "evdev"), model: string(model, or: "pc105"),
                            layout: string(layout, or: "us"), variant: string(variant), options: string(options))
    do {
        return register(try Keymap(names: names), #function)
    } catch {
        misuse(#function, "no keymap for \(names): \(error)")
        return nil
    }
}

@_cdecl("seatkit_keymap_create_from_string")
public func seatkit_keymap_create_from_string(_ text: UnsafePointer<CChar>?) -> OpaquePointer? {
    guard let text else {
        misuse(#function, "NULL keymap text")
        return nil
    }
    do {
        return register(try Keymap(string: String(cString: text)), #function)
    } catch {
        misuse(#function, "the keymap text does not compile: \(error)")
        return nil
    }
}

private func register(_ keymap: Keymap, _ function: StaticString) -> OpaquePointer? {
    let c = CKeymap(keymap: keymap)
    guard let handle = Handles.insert(c, kind: .keymap) else {
        misuse(function, "too many live handles")
        return nil
    }
    return handle
}

@_cdecl("seatkit_keymap_destroy")
public func seatkit_keymap_destroy(_ handle: OpaquePointer?) {
    guard live(handle, .keymap, as: CKeymap.self, #function) != nil, let handle else { return }
    Handles.remove(handle)
}

@_cdecl("seatkit_keymap_get_string")
public func seatkit_keymap_get_string(_ handle: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let k = live(handle, .keymap, as: CKeymap.self, #function) else { return nil }
    return UnsafePointer(k.text)
}

@_cdecl("seatkit_keysym_from_name")
public func seatkit_keysym_from_name(_ name: UnsafePointer<CChar>?) -> UInt32 {
    guard let name else {
        misuse(#function, "NULL name")
        return 0
    }
    return Keysym.lookup(String(cString: name)) ?? 0
}

@_cdecl("seatkit_router_set_keymap")
public func seatkit_router_set_keymap(_ router: OpaquePointer?, _ keymap: OpaquePointer?, _ rate: Int32, _ delay: Int32) {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return }
    guard keymap != nil else {
        APICall.run {
            r.router.keyInterpreter = nil
            r.keyboard = nil
        }
        return
    }
    guard let k = live(keymap, .keymap, as: CKeymap.self, #function) else { return }
    guard rate >= 0, delay >= 0 else {
        misuse(#function, "repeat rate \(rate) and delay \(delay) must not be negative; refused")
        return
    }
    let settings = KeyRepeat(rate: Int(rate), delay: .milliseconds(Int64(delay)))
    APICall.run {
        if let keyboard = r.keyboard {
            keyboard.setKeymap(k.keymap)
            keyboard.keyRepeat = settings
        } else {
            let keyboard = Keyboard(keymap: k.keymap, keyRepeat: settings)
            keyboard.attach(to: r.router)
            r.keyboard = keyboard
        }
    }
}

@_cdecl("seatkit_router_get_modifiers")
public func seatkit_router_get_modifiers(_ router: OpaquePointer?) -> UInt32 {
    guard let r = live(router, .router, as: CRouter.self, #function), let keyboard = r.keyboard else { return 0 }
    return keyboard.state.modifiers.rawValue
}
