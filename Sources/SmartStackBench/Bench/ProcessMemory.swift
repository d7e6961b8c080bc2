import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

/// The process's own memory use, from the kernel.
public enum ProcessMemory {
  /// Peak resident set size so far ("high water mark", `VmHWM` in `/proc/self/status`),
  /// in bytes; nil where `/proc` does not exist (macOS) or cannot be read.
  public static func peakResidentBytes() -> Int? {
    statusField("VmHWM")
  }

  /// Current resident set size (`VmRSS`), in bytes; nil where unavailable.
  public static func residentBytes() -> Int? {
    statusField("VmRSS")
  }

  /// The `NAME:   123 kB` line of `/proc/self/status`, in bytes.
  static func statusField(_ name: String) -> Int? {
    guard let text = KernelFiles.text("/proc/self/status") else { return nil }
    return parseStatusField(name, in: Array(text.utf8))
  }

  /// The value of field `name` in the text of a `/proc/*/status` file (`VmHWM:\t  1234 kB`),
  /// in bytes (kB are 1024 bytes), or nil when the field is missing or malformed.
  static func parseStatusField(_ name: String, in bytes: [UInt8]) -> Int? {
    let prefix = Array((name + ":").utf8)
    var lineStart = 0
    while lineStart < bytes.count {
      var lineEnd = lineStart
      while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
      let line = bytes[lineStart..<lineEnd]
      if line.starts(with: prefix) {
        var i = line.startIndex + prefix.count
        while i < lineEnd && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        var value = 0
        var digits = 0
        while i < lineEnd, bytes[i] >= 0x30, bytes[i] <= 0x39, digits < 15 {
          value = value * 10 + Int(bytes[i] - 0x30)
          digits += 1
          i += 1
        }
        guard digits > 0 else { return nil }
        let unit = String(decoding: bytes[i..<lineEnd], as: UTF8.self)
        switch unit.trimmingCharacters(in: .whitespaces) {
        case "kB": return value * 1_024
        case "": return value
        default: return nil
        }
      }
      lineStart = lineEnd + 1
    }
    return nil
  }
}

/// The CPU time the calling thread has used, which unlike wall-clock time does not grow
/// while other processes hold the core.
public enum ThreadCPUTime {
  /// Nanoseconds of CPU time of this thread (`CLOCK_THREAD_CPUTIME_ID`), or 0 where
  /// unavailable.
  public static func nanoseconds() -> UInt64 {
    var t = timespec()
    guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 else { return 0 }
    return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
  }
}
