import Foundation

/// How many cores this process may use: what the commands' `--jobs` default to and how
/// many parts a reader cuts a window into (`ParallelMap.partCount`).
///
/// The machine's active processors (`ProcessInfo.activeProcessorCount`), or fewer when:
/// - **the process may run on only some of them** (Linux: `Cpus_allowed_list` in
///   `/proc/self/status`, its affinity mask): `taskset -c`, a Slurm job confined to its
///   CPUs (task/affinity or task/cgroup), `docker run --cpuset-cpus`, a Kubernetes pod
///   with exclusive CPUs. Foundation counts the machine's processors whatever the mask
///   (2 under `taskset -c 1` on the project's 2-core VM): by it, a job given 2 CPUs of a
///   64-core node would run 64 workers and cut each window of a log into 64 parts;
/// - **a CPU quota binds it** (its cgroup's, or a parent's: v2 `cpu.max`, v1
///   `cpu.cfs_quota_us` over `cpu.cfs_period_us`; `ControlGroups`): `docker run --cpus`, a
///   Kubernetes pod's `resources.limits.cpu`, a systemd unit's `CPUQuota`. A quota of 1.5
///   CPUs counts as 2: the workers then share the time the quota gives;
/// - **a Slurm job was given fewer** (`SLURM_CPUS_ON_NODE`, its CPUs on this node), for
///   clusters that do not confine a job to its CPUs.
///
/// Anything missing or unreadable counts as no limit.
public enum AvailableCores {
  /// The cores this process may use, read once (at first use). At least 1.
  public static let count: Int = {
    let cgroup = KernelFiles.text("/proc/self/cgroup")
    let mounts = KernelFiles.text("/proc/self/mountinfo")
    return current(
      status: KernelFiles.text("/proc/self/status"),
      quota: cgroup.flatMap { cgroup in
        mounts.flatMap { mounts in
          quotaCPUs(cgroupFile: cgroup, mountInfo: mounts, read: KernelFiles.text)
        }
      },
      environment: ProcessInfo.processInfo.environment,
      activeProcessors: ProcessInfo.processInfo.activeProcessorCount)
  }()

  /// The cores described on the type, from the text of `/proc/self/status` (`status`; nil
  /// where there is none), the CPUs of a cgroup quota (`quota`, nil for none), the
  /// environment and the machine's active processors. At least 1.
  package static func current(
    status: String?, quota: Int?, environment: [String: String], activeProcessors: Int
  ) -> Int {
    var cores = max(1, activeProcessors)
    if let status, let allowed = allowedCPUs(status) { cores = min(cores, allowed) }
    if let quota { cores = min(cores, max(1, quota)) }
    if let text = environment["SLURM_CPUS_ON_NODE"], let slurm = Int(text), slurm > 0 {
      cores = min(cores, slurm)
    }
    return cores
  }

  /// The CPUs the tightest CPU quota over the process's cgroups allows (quota / period,
  /// rounded up), from the text of `/proc/self/cgroup` and `/proc/self/mountinfo`; `read`
  /// gives a file's text, nil when it does not exist. Nil when no quota applies (v2
  /// `max`, v1 -1).
  package static func quotaCPUs(
    cgroupFile: String, mountInfo: String, read: (String) -> String?
  ) -> Int? {
    let file = { (version2: Bool) in version2 ? "cpu.max" : "cpu.cfs_quota_us" }
    return ControlGroups.smallest(
      controller: "cpu", cgroupFile: cgroupFile, mountInfo: mountInfo, file: file, read: read
    ) { text, folder, version2 in
      let quota: Int?
      let period: Int?
      if version2 {
        // `QUOTA PERIOD`, QUOTA `max` for none.
        let fields = text.split(whereSeparator: \.isWhitespace)
        (quota, period) = (
          fields.first.flatMap { Int($0) }, fields.dropFirst().first.flatMap { Int($0) }
        )
      } else {
        func number(_ text: String?) -> Int? {
          text.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        (quota, period) = (number(text), number(read(folder + "/cpu.cfs_period_us")))
      }
      guard let quota, let period, quota > 0, period > 0 else { return nil }
      return (quota + period - 1) / period
    }
  }

  /// The number of CPUs in the `Cpus_allowed_list:` line of a `/proc/*/status` text; nil
  /// when there is none or it is malformed.
  package static func allowedCPUs(_ status: String) -> Int? {
    let prefix = "Cpus_allowed_list:"
    let lines = status.split(separator: "\n")
    guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { return nil }
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
