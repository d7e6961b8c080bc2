import SmartStackBase
import SmartStackData

/// A scenario fitted to a log (`smartstack fit`, docs/fit.md): personas, apps, stack,
/// days and time zone, written as an ordinary scenario file (docs/scenario-format.md).
public struct FittedScenario: Sendable {
  /// The options of a fit.
  public struct Options: Sendable {
    /// How many clusters of people (k-means, `FitClustering`); at least the number of
    /// people fits each person alone.
    public var clusters: Int = 1
    /// The clustering seed, also the scenario's `seed`.
    public var seed: UInt64 = 1
    /// The stack to write; nil takes the most donated kinds (`topKinds`).
    public var stack: StackSpec? = nil
    /// The scenario's `name`.
    public var name: String = "fitted"
    public init() {}
  }

  /// The most kinds a stack built from the log holds (a stack holds 10 widgets).
  public static let topKinds = StackSpec.maximumInstances
  /// The most local days a scenario runs.
  public static let maximumDays = 366

  public var name: String
  public var seed: UInt64
  public var zone: ZoneRules
  public var startDay: Int64
  public var days: Int
  public var personas: [FittedPersona]
  /// The apps (donation signatures) and their ids in the scenario, in the same order.
  public var apps: [FitObservations.App]
  public var appIDs: [String]
  public var stack: StackSpec
  /// Notes for the user (dropped donations, shortened window).
  public var notes: [String] = []

  /// Fits `observations` (docs/fit.md, "Method").
  public init(_ observations: FitObservations, options: Options) throws {
    guard options.clusters >= 1 else { throw FitError("--clusters must be at least 1") }
    name = options.name
    seed = options.seed
    zone = observations.zone
    startDay = observations.firstDay
    days = min(observations.dayCount, Self.maximumDays)
    if observations.dayCount > Self.maximumDays {
      notes.append("the log spans \(observations.dayCount) local days; the scenario runs the first \(Self.maximumDays)")
    }
    if observations.droppedDonations > 0 {
      notes.append(
        "\(observations.droppedDonations) donations of rarer signatures were left out (at most \(FitObservations.maximumApps) apps)")
    }
    apps = observations.apps
    appIDs = Self.ids(for: observations.apps)
    let profiles = observations.people.indices.map { FitProfile(person: $0, of: observations) }
    let assignment = FitClustering.assign(profiles.map(\.features), clusters: options.clusters, seed: options.seed)
    let clusterCount = (assignment.max() ?? -1) + 1
    let perPerson = options.clusters >= observations.people.count
    personas = (0..<clusterCount).map { c in
      var total = FitProfile(apps: observations.apps.count)
      var members: [String] = []
      for p in observations.people.indices where assignment[p] == c {
        total.add(profiles[p])
        members.append(observations.people[p])
      }
      let name = perPerson ? "person-\(c + 1)" : "cluster-\(c + 1)"
      return FittedPersona(name: name, members: members, profile: total, daysPerWeekday: observations.daysPerWeekday)
    }
    if let given = options.stack {
      stack = given
    } else {
      var kindCounts: [String: Int] = [:]
      for p in observations.people.indices {
        for a in observations.donationApps[p] { kindCounts[observations.apps[Int(a)].kind, default: 0] += 1 }
      }
      let kinds = kindCounts.sorted { a, b in
        a.value != b.value ? a.value > b.value : a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
      }.prefix(Self.topKinds).map(\.key)
      guard !kinds.isEmpty else { throw FitError("the log holds no donation: a fitted stack needs at least one kind") }
      stack = StackSpec(file: "fitted", instances: kinds.map { WidgetInstance(id: $0, kind: $0) })
    }
  }

  /// App ids: the kind, lower-cased, with every run of characters other than a-z and
  /// 0-9 turned into one `-`; a repeated id gets `-2`, `-3`, … in app order.
  static func ids(for apps: [FitObservations.App]) -> [String] {
    var used: Set<String> = []
    return apps.map { app in
      var base = ""
      for c in app.kind.lowercased().unicodeScalars {
        if ("a"..."z").contains(c) || ("0"..."9").contains(c) {
          base.unicodeScalars.append(c)
        } else if !base.hasSuffix("-") {
          base += "-"
        }
      }
      while base.hasSuffix("-") { base.removeLast() }
      while base.hasPrefix("-") { base.removeFirst() }
      if base.isEmpty { base = "app" }
      var id = base
      var k = 2
      while used.contains(id) {
        id = "\(base)-\(k)"
        k += 1
      }
      used.insert(id)
      return id
    }
  }

  /// The people the scenario simulates, in all.
  public var personCount: Int { personas.reduce(0) { $0 + $1.members.count } }
}
