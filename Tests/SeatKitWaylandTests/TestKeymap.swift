import Foundation

/// TEMPORARY, until SeatKitXKB is merged: compiles the default ("us") keymap with the
/// system's libxkbcommon, loaded at run time so that no C module is added for it. At merge,
/// take the keymap text from SeatKitXKB instead.
enum TestKeymap {
    static func usText() throws -> String {
        guard let lib = dlopen("libxkbcommon.so.0", RTLD_NOW) else { throw SessionError("libxkbcommon.so.0 is missing") }
        typealias ContextNew = @convention(c) (Int32) -> OpaquePointer?
        typealias KeymapNew = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int32) -> OpaquePointer?
        typealias KeymapString = @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
        func symbol<T>(_ name: String, _: T.Type) throws -> T {
            guard let s = dlsym(lib, name) else { throw SessionError("\(name) is missing") }
            return unsafeBitCast(s, to: T.self)
        }
        let contextNew = try symbol("xkb_context_new", ContextNew.self)
        let keymapNew = try symbol("xkb_keymap_new_from_names", KeymapNew.self)
        let keymapString = try symbol("xkb_keymap_get_as_string", KeymapString.self)
        // Rules, model and layout come from the environment or the defaults: evdev, pc105, us.
        setenv("XKB_DEFAULT_LAYOUT", "us", 1)
        guard let context = contextNew(0), let keymap = keymapNew(context, nil, 0),
              let text = keymapString(keymap, 1) else { throw SessionError("the us keymap did not compile") }
        defer { free(text) }
        return String(cString: text)
    }
}
