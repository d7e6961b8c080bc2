import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

/// What the bench ran on.
public struct BenchMachine: Sendable, Hashable {
  /// The CPU's model name (`/proc/cpuinfo`), or `unknown`.
  public var cpu: String
  /// Processors of the machine.
  public var cores: Int
  /// Processors this process may run on (`Cpus_allowed_list`, e.g. 1 under
  /// `taskset -c 1`); `cores` where unknown.
  public var coresAllowed: Int

  /// The machine this process runs on.
  public static func current() -> BenchMachine {
    let cores = ProcessInfo.processInfo.processorCount
    var cpu = "unknown"
    if let info = ProcessMemory.readProcFile("/proc/cpuinfo") {
      for line in String(decoding: info, as: UTF8.self).split(separator: "\n") where line.hasPrefix("model name") {
        if let colon = line.firstIndex(of: ":") {
          cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        break
      }
    }
    var allowed = cores
    if let status = ProcessMemory.readProcFile("/proc/self/status") {
      for line in String(decoding: status, as: UTF8.self).split(separator: "\n")
      where line.hasPrefix("Cpus_allowed_list:") {
        allowed = countCPUs(String(line.dropFirst("Cpus_allowed_list:".count))) ?? cores
      }
    }
    return BenchMachine(cpu: cpu, cores: cores, coresAllowed: allowed)
  }

  /// The number of CPUs in a list such as `0-3,6,8-9` (nil when malformed).
  static func countCPUs(_ list: String) -> Int? {
    var count = 0
    for part in list.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",") {
      let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
      guard bounds.count <= 2, let low = Int(bounds[0]), let high = Int(bounds.last!), high >= low
      else { return nil }
      count += high - low + 1
    }
    return count > 0 ? count : nil
  }
}
