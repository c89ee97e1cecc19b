import CWaylandServer
import CWaylandShellProtocols
import Glibc
import SeatKitWayland

// wl_shm (1), the headless shell's own: pools and buffers whose sizes are checked.
//
// libwayland's built-in wl_shm (wl_display_init_shm) checks only that a buffer's stride is at
// least its width and that it fits its pool; a stride of one byte a pixel for a four-byte
// format passes, and a renderer reading the buffer reads past its rows. Here:
// - create_pool: a size that is not positive is `invalid_stride`.
// - resize: a pool never shrinks (`invalid_stride`).
// - create_buffer: the format must be one advertised (ARGB8888, XRGB8888: `invalid_format`);
//   width, height and stride positive, the stride at least width × 4 bytes, the offset not
//   negative and offset + stride × height within the pool (all in 64 bits, no overflow):
//   otherwise `invalid_stride` on the pool.
// - wl_surface.attach: a buffer whose file does not hold it (below offset + stride × height:
//   never that long, or cut short since; checked at each attach, since the client may
//   truncate it at any time) is `invalid_fd` on the buffer, where a renderer would die of
//   SIGBUS.
//
// The headless shell draws nothing: pools are never mapped, only their files' sizes are
// checked (fstat), and each buffer goes back to its client as soon as it is attached. The
// pool's file descriptor stays open while the pool or any of its buffers lives.

/// The POSIX calls of this file, in one place.
private enum PoolFile {
    /// The file's size in bytes; nil if it cannot be examined.
    static func size(_ fd: Int32) -> Int64? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }
}

/// A pool's file, shared by the pool and its buffers: closed when the last of them goes.
final class ShmFile {
    let fd: Int32
    /// The pool's declared size (it only grows).
    var size: Int64
    init(fd: Int32, size: Int64) {
        self.fd = fd
        self.size = size
    }
    deinit { PoolFile.close(fd) }

    /// Whether the file holds `bytes` bytes.
    func holds(_ bytes: Int64) -> Bool { (PoolFile.size(fd) ?? -1) >= bytes }
}

final class SharedMemoryGlobal: GlobalOwner {
    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        guard let r = Libwayland.createResource(client, wl_shm_wire()!, version: Int32(version), id: id,
                                                implementation: shmRequests, object: nil) else { return }
        for format in [WL_SHM_FORMAT_ARGB8888, WL_SHM_FORMAT_XRGB8888] { Libwayland.post(r, WL_SHM_FORMAT, .uint(format.rawValue)) }
    }
}

extension HeadlessShell {
    /// Offers the shell's wl_shm (1), in place of libwayland's.
    func advertiseSharedMemory() {
        let owner = SharedMemoryGlobal()
        owners.append(owner)
        if let g = Libwayland.createGlobal(display.display, wl_shm_wire()!, version: 1, owner: owner) { globals.append(g) }
    }
}

final class ShmPool {
    let file: ShmFile
    init(file: ShmFile) { self.file = file }
}

/// A wl_buffer of the shell's wl_shm.
final class ShmBuffer {
    let file: ShmFile
    let offset: Int64, width: Int32, height: Int32, stride: Int64

    init(file: ShmFile, offset: Int64, width: Int32, height: Int32, stride: Int64) {
        self.file = file
        self.offset = offset
        self.width = width
        self.height = height
        self.stride = stride
    }

    /// The buffer behind a wl_buffer of this implementation; nil for any other.
    static func of(_ resource: OpaquePointer) -> ShmBuffer? {
        guard Libwayland.isInstance(resource, of: wl_buffer_wire()!, implementation: shmBufferRequests) else { return nil }
        return Libwayland.object(resource, as: ShmBuffer.self)
    }

    /// Whether the client's file still holds every byte of the buffer.
    var fileHoldsBuffer: Bool { file.holds(offset + stride * Int64(height)) }
}

private nonisolated(unsafe) let shmRequests = Libwayland.table(wl_shm_requests(
    create_pool: { client, resource, id, fd, size in
        guard let client, let resource else {
            PoolFile.close(fd)
            return
        }
        guard size > 0 else {
            PoolFile.close(fd)
            Libwayland.postError(resource, code: WL_SHM_ERROR_INVALID_STRIDE.rawValue, "pool size \(size) is not positive")
            return
        }
        let file = ShmFile(fd: fd, size: Int64(size))
        _ = Libwayland.createResource(client, wl_shm_pool_wire()!, version: Libwayland.version(of: resource), id: id,
                                      implementation: shmPoolRequests, object: ShmPool(file: file))
    }
))

private nonisolated(unsafe) let shmPoolRequests = Libwayland.table(wl_shm_pool_requests(
    create_buffer: { client, resource, id, offset, width, height, stride, format in
        guard let client, let resource, let pool = Libwayland.object(resource, as: ShmPool.self) else { return }
        guard format == WL_SHM_FORMAT_ARGB8888.rawValue || format == WL_SHM_FORMAT_XRGB8888.rawValue else {
            Libwayland.postError(resource, code: WL_SHM_ERROR_INVALID_FORMAT.rawValue, "format \(format) was not advertised")
            return
        }
        let rowBytes = Int64(width) * 4
        guard width > 0, height > 0, stride > 0, offset >= 0, Int64(stride) >= rowBytes,
              Int64(offset) + Int64(stride) * Int64(height) <= pool.file.size else {
            Libwayland.postError(resource, code: WL_SHM_ERROR_INVALID_STRIDE.rawValue,
                                 "buffer \(width)x\(height), stride \(stride), offset \(offset) does not fit 4-byte pixels in a pool of \(pool.file.size) bytes")
            return
        }
        let buffer = ShmBuffer(file: pool.file, offset: Int64(offset), width: width, height: height, stride: Int64(stride))
        _ = Libwayland.createResource(client, wl_buffer_wire()!, version: 1, id: id, implementation: shmBufferRequests, object: buffer)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    resize: { _, resource, size in
        guard let resource, let pool = Libwayland.object(resource, as: ShmPool.self) else { return }
        guard Int64(size) >= pool.file.size else {
            Libwayland.postError(resource, code: WL_SHM_ERROR_INVALID_STRIDE.rawValue, "a pool cannot shrink (\(pool.file.size) to \(size) bytes)")
            return
        }
        pool.file.size = Int64(size)
    }
))

nonisolated(unsafe) let shmBufferRequests = Libwayland.table(wl_buffer_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
