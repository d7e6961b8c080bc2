import Foundation
import Testing

/// `--jobs` defaults to the cores the process may use (`AvailableCores`): fewer than the
/// machine's in a Slurm job given fewer CPUs, under an affinity mask (`taskset`) or in a
/// cgroup with a CPU quota.
@Suite("The --jobs default follows the cores the process may use")
struct AvailableCoresCommandTests {
  /// Whether this test process may make cgroup v1 CPU cgroups: cgroup v1's cpu hierarchy
  /// at `/sys/fs/cgroup/cpu`, writable (root on a machine without cgroup namespaces, as
  /// the project's VM). Elsewhere the test is skipped, visibly; the parsing of v1 and v2
  /// quotas is checked everywhere by `AvailableCoresTests`.
  static var canMakeCPUCgroups: Bool {
    FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cpu/cpu.cfs_quota_us")
      && FileManager.default.isWritableFile(atPath: "/sys/fs/cgroup/cpu")
  }

  @Test(.enabled(if: canMakeCPUCgroups))
  func aCgroupQuotaOfOneCPURunsOneWorker() throws {
    let group = "/sys/fs/cgroup/cpu/smartstack-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: group, withIntermediateDirectories: false)
    defer { rmdir(group) }
    // One CPU: a quota of one period (100 ms by default) per period.
    let period = try String(contentsOfFile: group + "/cpu.cfs_period_us", encoding: .utf8)
    try period.trimmingCharacters(in: .whitespacesAndNewlines)
      .write(toFile: group + "/cpu.cfs_quota_us", atomically: false, encoding: .utf8)
    let result = try CLI.run(
      ["replay", "--help"], unsetting: ["SLURM_CPUS_ON_NODE"], launcher: CLI.inCgroup(group))
    #expect(result.status == 0)
    #expect(Self.jobsDefault(result.stdout) == 1)
  }

  /// The default `--help` gives for `--jobs` in `help`: the `(default: N)` of its block.
  static func jobsDefault(_ help: String) -> Int? {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0.hasPrefix("  --jobs") }) else { return nil }
    let block = lines[start...].prefix { $0 == lines[start] || !$0.hasPrefix("  -") }.joined(separator: " ")
    guard let range = block.range(of: #"\(default: [0-9]+\)"#, options: .regularExpression) else {
      return nil
    }
    return Int(block[range].dropFirst("(default: ".count).dropLast())
  }

  @Test(arguments: ["replay", "simulate", "merge"])
  func aSlurmJobOfOneCPURunsOneWorker(command: String) throws {
    let machine = try CLI.run([command, "--help"], unsetting: ["SLURM_CPUS_ON_NODE"])
    #expect(machine.status == 0)
    #expect(try #require(Self.jobsDefault(machine.stdout)) >= 1)
    let job = try CLI.run([command, "--help"], environment: ["SLURM_CPUS_ON_NODE": "1"])
    #expect(job.status == 0)
    #expect(Self.jobsDefault(job.stdout) == 1)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset")))
  func oneCPUOfTheAffinityMaskRunsOneWorker() throws {
    let result = try CLI.run(
      ["replay", "--help"], unsetting: ["SLURM_CPUS_ON_NODE"], launcher: ["/usr/bin/taskset", "-c", "0"])
    #expect(result.status == 0)
    #expect(Self.jobsDefault(result.stdout) == 1)
  }
}
