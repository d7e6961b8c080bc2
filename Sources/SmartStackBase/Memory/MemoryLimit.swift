import Foundation

/// How much memory this process may use: the machine's, or less when a Linux control
/// group limits it (a container, a Slurm job with `--mem`, a Kubernetes pod's
/// `resources.limits.memory`, a systemd unit's `MemoryMax`). What a default that scales
/// with memory (`replay --max-memory`'s) is a share of: the machine's memory alone would
/// let a job with a 4 GiB limit on a 256 GiB node hold 64 GiB and be killed.
///
/// **The cgroup limit** (`cgroupLimit(cgroupFile:mountInfo:read:)`), cgroup v1 and v2: the
/// smallest of `memory.max` (v2; `max` is none) and `memory.limit_in_bytes` (v1; 2^62 or
/// more is none) over the process's memory cgroup and every one above it
/// (`ControlGroups`).
///
/// **A Slurm job's memory** (`slurmLimit(_:)`), for clusters that enforce `--mem` by
/// watching the job's memory rather than with a cgroup: `SLURM_MEM_PER_NODE` (sbatch's
/// `--mem`, in MiB), else `SLURM_MEM_PER_CPU` (`--mem-per-cpu`, MiB) times
/// `SLURM_CPUS_ON_NODE`, from the job's environment.
///
/// Anything missing or unreadable counts as no limit: the machine's memory.
package enum MemoryLimit {
  /// The bytes this process may use: the smallest of the machine's memory
  /// (`ProcessInfo.physicalMemory`), its cgroup limit and a Slurm job's memory in
  /// `environment`. Reads a few small files.
  package static func current(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> UInt64
  {
    var limit = ProcessInfo.processInfo.physicalMemory
    if let cgroup = KernelFiles.text("/proc/self/cgroup"),
      let mounts = KernelFiles.text("/proc/self/mountinfo"),
      let bytes = cgroupLimit(cgroupFile: cgroup, mountInfo: mounts, read: KernelFiles.text)
    {
      limit = min(limit, bytes)
    }
    if let bytes = slurmLimit(environment) { limit = min(limit, bytes) }
    return limit
  }

  /// A Slurm job's memory in bytes from its environment (see the type); nil outside a job
  /// or when the variables are not positive whole numbers.
  package static func slurmLimit(_ environment: [String: String]) -> UInt64? {
    func mebibytes(_ name: String) -> UInt64? {
      guard let text = environment[name], let value = UInt64(text), value > 0, value < 1 << 40
      else { return nil }
      return value
    }
    if let node = mebibytes("SLURM_MEM_PER_NODE") { return node << 20 }
    if let cpu = mebibytes("SLURM_MEM_PER_CPU"), let cpus = mebibytes("SLURM_CPUS_ON_NODE"),
      cpus < 1 << 20
    {
      return (cpu * cpus) << 20
    }
    return nil
  }

  /// The cgroup memory limit described on the type, from the text of `/proc/self/cgroup`
  /// and `/proc/self/mountinfo`; `read` gives a file's text, nil when it does not exist.
  /// Nil when no limit applies.
  package static func cgroupLimit(cgroupFile: String, mountInfo: String, read: (String) -> String?)
    -> UInt64?
  {
    let file = { (version2: Bool) in version2 ? "memory.max" : "memory.limit_in_bytes" }
    return ControlGroups.smallest(
      controller: "memory", cgroupFile: cgroupFile, mountInfo: mountInfo, file: file, read: read
    ) { text, _, _ in
      parseLimit(text)
    }
  }

  /// A limit file's value: nil for none (`max`, 2^62 or more, or text that is no number).
  static func parseLimit(_ text: String) -> UInt64? {
    guard let value = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)), value < 1 << 62
    else { return nil }
    return value
  }
}
