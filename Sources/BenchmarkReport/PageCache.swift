#if canImport(Glibc)
import Glibc
#endif

/// The kernel's copy of a file's pages.
public enum PageCache {
    /// Has the kernel forget `path`'s pages, so that a process started from it reads them from
    /// disk as it would after a reboot or an install. A binary linked or copied a moment ago is in
    /// the page cache as its writer left it, and a bridge started from it was seen 1.2–1.5 MiB
    /// more resident than one started from the same bytes read back from disk. Best effort: a file it cannot open is left as it is.
    public static func evict(_ path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // Dirty pages are not dropped: they are written back first.
        fsync(descriptor)
        posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
    }
}
