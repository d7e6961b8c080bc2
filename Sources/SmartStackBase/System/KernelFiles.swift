import Foundation

/// The small text files the kernel shows a process: `/proc/self/status`, `/proc/cpuinfo`,
/// `/proc/self/cgroup`, `/proc/self/mountinfo` and cgroup limit files. Their size is not
/// known before they are read (`stat` says 0 or 4096), so each is read whole, once.
package enum KernelFiles {
  /// The most bytes read of one file: 16 MiB (`/proc/cpuinfo` of a 256-core machine is
  /// about 0.4 MB; the rest are a few KiB).
  static let maximumBytes = 16 << 20

  /// The text of the file at `path` (its first `maximumBytes`, UTF-8 decoded with
  /// replacement); nil when it does not exist or cannot be read.
  package static func text(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: maximumBytes) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}
