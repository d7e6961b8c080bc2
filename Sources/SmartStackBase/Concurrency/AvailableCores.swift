import Foundation

/// How many cores this process may use: what the commands' `--jobs` default to and how
/// many parts a reader cuts a window into (`ParallelMap.partCount`).
///
/// The machine's active processors (`ProcessInfo.activeProcessorCount`), or fewer when:
/// - **the process may run on only some of them** (Linux: `Cpus_allowed_list` in
///   `/proc/self/status`, its affinity mask): `taskset -c`, a Slurm job confined to its
///   CPUs (task/affinity or task/cgroup), `docker run --cpuset-cpus`, a Kubernetes pod
///   with exclusive CPUs. Foundation counts the machine's processors whatever the mask
///   (2 under `taskset -c 1` on the project's 2-core VM), so a job given 2 CPUs of a
///   64-core node ran 64 workers and cut each window of a log into 64 parts;
/// - **a Slurm job was given fewer** (`SLURM_CPUS_ON_NODE`, its CPUs on this node), for
///   clusters that do not confine a job to its CPUs.
///
/// A CPU quota (cgroup `cpu.max`, `docker run --cpus`, a Kubernetes CPU limit) is not
/// read: it limits time, not cores. Give `--jobs` by hand there. Anything missing or
/// unreadable counts as no limit.
public enum AvailableCores {
  /// The cores this process may use, read once (at first use). At least 1.
  public static let count = current(
    status: MemoryLimit.readText("/proc/self/status"), environment: ProcessInfo.processInfo.environment,
    activeProcessors: ProcessInfo.processInfo.activeProcessorCount)

  /// The cores described on the type, from the text of `/proc/self/status` (`status`; nil
  /// where there is none), the environment and the machine's active processors. At least 1.
  package static func current(status: String?, environment: [String: String], activeProcessors: Int) -> Int {
    var cores = max(1, activeProcessors)
    if let status, let allowed = allowedCPUs(status) { cores = min(cores, allowed) }
    if let text = environment["SLURM_CPUS_ON_NODE"], let slurm = Int(text), slurm > 0 {
      cores = min(cores, slurm)
    }
    return cores
  }

  /// The number of CPUs in the `Cpus_allowed_list:` line of a `/proc/*/status` text; nil
  /// when there is none or it is malformed.
  package static func allowedCPUs(_ status: String) -> Int? {
    let prefix = "Cpus_allowed_list:"
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
    return countCPUs(String(line.dropFirst(prefix.count)))
  }

  /// The number of CPUs in a list such as `0-3,6,8-9` (nil when malformed or empty).
  package static func countCPUs(_ list: String) -> Int? {
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
