// Every call into umockdev (and glib) goes through this file: one place to trace or fake
// them. Nothing else in SeatKitReplay imports CUmockdev.
import CUmockdev
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// umockdev's testbed sets `UMOCKDEV_DIR` in this process's environment while it is built:
/// environment writes race with other threads' reads, so testbeds are built one at a time,
/// and children are spawned under the same lock.
let processEnvironmentLock = Mutex<Void>(())

/// An umockdev testbed (`UMockdevTestbed *`): a private /sys and /dev that a child process
/// running under `libumockdev-preload.so` sees instead of the real ones. Unreferenced (and
/// its directory removed by umockdev) in deinit.
final class UmockdevTestbedHandle {
    private let pointer: UnsafeMutablePointer<UMockdevTestbed>
    /// The testbed's root directory: the child's `UMOCKDEV_DIR`.
    let rootDirectory: String

    init() {
        pointer = processEnvironmentLock.withLock { _ in
            // umockdev makes the testbed in GLib's temporary directory, which GLib takes
            // from TMPDIR on its first use in the process: the replay's (in memory when it can).
            let setTemporary = getenv("TMPDIR") == nil
            if setTemporary { setenv("TMPDIR", replayTemporaryRoot, 1) }
            defer { if setTemporary { unsetenv("TMPDIR") } }
            return umockdev_testbed_new()
        }
        let dir = umockdev_testbed_get_root_dir(pointer)!
        rootDirectory = String(cString: dir)
        g_free(dir)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// Adds devices from umockdev's text description (`P:`, `N:`, `E:`, `A:` lines).
    func addDevices(description: String) throws(ReplayError) {
        var error: UnsafeMutablePointer<GError>?
        if umockdev_testbed_add_from_string(pointer, description, &error) == 0 {
            throw ReplayError.environment("umockdev refused a device description: \(Self.take(error))")
        }
    }

    /// Loads ioctl answers for `node` from an ioctl record file.
    func loadIoctls(node: String, file: String) throws(ReplayError) {
        var error: UnsafeMutablePointer<GError>?
        if umockdev_testbed_load_ioctl(pointer, node, file, &error) == 0 {
            throw ReplayError.environment("umockdev refused the ioctl answers for \(node): \(Self.take(error))")
        }
    }

    /// The writing end of the emulated node: bytes written here are what a reader of `node`
    /// reads. Owned by the testbed.
    func deviceFileDescriptor(node: String) -> Int32 {
        umockdev_testbed_get_dev_fd(pointer, node)
    }

    /// Removes a device, as if unplugged (the child's udev monitor sees "remove").
    func removeDevice(systemPath: String) {
        umockdev_testbed_remove_device(pointer, systemPath)
    }

    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
