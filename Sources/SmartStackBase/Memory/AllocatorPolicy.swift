#if canImport(Glibc)
  import Glibc
#endif

/// How the process's allocator hands big blocks back to the kernel: set once, when a tool
/// starts (`SmartStack.main`), before any thread is made.
///
/// glibc's `malloc` serves a block of at least its mmap threshold with a mapping of its
/// own, which `free` unmaps at once; the threshold starts at 128 KiB but by default rises
/// to the size of every such block freed (up to 32 MiB), after which blocks that big are
/// carved from a thread's arena and, freed, stay there. A reader's threads then keep the
/// columns they read (freed into their arenas) while the thread that spreads them over
/// the people allocates anew in its own: the freed memory is counted twice. A fixed
/// threshold (`mmapThresholdBytes`) stops the rise, so an array of 256 KiB or more is
/// returned to the kernel when it is freed, wherever it was allocated
/// (docs/performance.md, "Memory").
///
/// On other C libraries this does nothing.
package enum AllocatorPolicy {
  /// Blocks of at least this many bytes are mapped on their own and unmapped when freed:
  /// 256 KiB, glibc's threshold before it rises, twice its 128 KiB default (smaller blocks,
  /// the great majority, stay in the arenas; a reader's part of one window, about 1 MiB a
  /// column, does not).
  package static let mmapThresholdBytes: Int32 = 1 << 18

  /// `M_MMAP_THRESHOLD` of glibc's `<malloc.h>` (which the Glibc module does not export).
  static let mmapThresholdParameter: Int32 = -3

  /// Applies the policy. Call it once, early, from the main thread. O(1).
  ///
  /// `mallopt` is looked up by name (`dlsym`): it is declared in `<malloc.h>`, which the
  /// Glibc module does not export; when it is not there (another C library), nothing is set.
  package static func apply() {
    #if canImport(Glibc)
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
      _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThresholdParameter, mmapThresholdBytes)
    #endif
  }
}
