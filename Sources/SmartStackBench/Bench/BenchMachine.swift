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
    if let info = KernelFiles.text("/proc/cpuinfo") {
      for line in info.split(separator: "\n") where line.hasPrefix("model name") {
        if let colon = line.firstIndex(of: ":") {
          cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        break
      }
    }
    let allowed = KernelFiles.text("/proc/self/status").flatMap(AvailableCores.allowedCPUs) ?? cores
    return BenchMachine(cpu: cpu, cores: cores, coresAllowed: allowed)
  }
}
