#if canImport(Glibc)
  import Glibc
#endif

/// How the process's allocator hands big blocks back to the kernel once a command starts
/// reading a big visit log (`replay`, and `batch` for a log source's last point).
///
/// glibc's `malloc` serves a block of at least its mmap threshold with a mapping of its
/// own, which `free` unmaps at once; the threshold starts at 128 KiB but by default rises
/// to the size of every such block freed (up to 32 MiB), after which blocks that big are
/// carved from the allocating thread's arena and, freed, stay there for that arena's
/// reuse. A visit log's reader threads read its parts into their arenas; when the thread
/// that spreads the parts over the people frees them, they stay resident in the readers'
/// arenas while the spreading thread allocates the people's arrays anew in its own, so
/// the memory is counted twice (docs/performance.md, "Memory"). A fixed threshold
/// (`mmapThresholdBytes`) stops the rise, so every part of 256 KiB or more is unmapped
/// when it is freed, wherever it was allocated.
///
/// It is set only from then on, not when a tool starts: the rise is what lets a reader
/// reuse its freed blocks without new page faults, which the donation log's reading (and
/// `bench`'s ingest) keeps. It changes no result, only which memory is resident when.
/// On other C libraries this does nothing.
package enum AllocatorPolicy {
  /// Blocks of at least this many bytes are mapped on their own and unmapped when freed:
  /// 256 KiB, twice glibc's 128 KiB default (smaller blocks, the great majority, stay in
  /// the arenas; a reader's part of one 8 MiB window, about 1 MiB a column, does not).
  package static let mmapThresholdBytes: Int32 = 1 << 18

  /// `M_MMAP_THRESHOLD` of glibc's `<malloc.h>` (which the Glibc module does not export).
  static let mmapThresholdParameter: Int32 = -3

  /// Fixes the mmap threshold at `mmapThresholdBytes` for the rest of the process. O(1);
  /// calling it again changes nothing.
  ///
  /// `mallopt` is looked up by name (`dlsym`): it is declared in `<malloc.h>`, which the
  /// Glibc module does not export; when it is not there (another C library), nothing is set.
  package static func returnBigBlocksWhenFreed() {
    #if canImport(Glibc)
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
      _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThresholdParameter, mmapThresholdBytes)
    #endif
  }
}
