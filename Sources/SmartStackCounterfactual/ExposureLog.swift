import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackExperiments

/// One visit of a logging strategy: what the stack could show, what it showed, with
/// which probability, and what the person did (see docs/counterfactual.md, "Exposure
/// log format").
public struct Exposure: Sendable, Hashable {
  /// The person's name.
  public var person: String
  /// The visit, epoch milliseconds (UTC).
  public var time: Int64
  /// The instance ids that could be shown, in the stack's order.
  public var candidates: [String]
  /// The logging policy's probability of showing each candidate (same order), when the
  /// log states it (`id=probability` in the `candidates` column); nil otherwise.
  public var candidateProbabilities: [Double]?
  /// The instance id shown.
  public var shown: String
  /// The logging policy's probability of showing `shown` at this visit (the
  /// *propensity*), in (0, 1]: stack rules included (a pinned widget's is 1).
  public var propensity: Double
  /// True when `propensity` is an estimate (e.g. from extra draws) rather than exact.
  public var estimated: Bool
  /// True when a stack rule fixed the shown widget whatever the strategy chose (a swipe
  /// pin, Smart Rotate off, the rotation limit): any strategy would have shown it, so a
  /// target is credited with it (docs/counterfactual.md).
  public var forced: Bool
  /// True when the person tapped the shown widget (the reward).
  public var reward: Bool
  /// True when the shown widget was one the person wanted at the visit.
  public var hit: Bool
  /// The instance ids the person wanted (empty: nothing in the stack, or not known).
  public var targets: [String]
  /// Version 2 (nil in a version-1 log): what the person did after seeing the shown
  /// widget (`tap`, `swipe`, `open`, `none`).
  public var action: VisitAction?
  /// Version 2: the instance id the person swiped to (`action` `swipe`), else empty.
  public var swipedTo: String = ""
  /// Version 2: the app the person wanted (or opened) at the visit, empty for no want.
  public var wantApp: String = ""
  /// Version 2: which rule decided the visit (`ExposureRule`).
  public var rule: ExposureRule?

  public init(
    person: String, time: Int64, candidates: [String], candidateProbabilities: [Double]? = nil, shown: String,
    propensity: Double, estimated: Bool = false, forced: Bool = false, reward: Bool, hit: Bool, targets: [String] = []
  ) {
    self.person = person
    self.time = time
    self.candidates = candidates
    self.candidateProbabilities = candidateProbabilities
    self.shown = shown
    self.propensity = propensity
    self.estimated = estimated
    self.forced = forced
    self.reward = reward
    self.hit = hit
    self.targets = targets
  }
}

extension Exposure {
  /// The `candidates` column: `id` or `id=probability`, joined by `;`.
  public var candidatesText: String {
    let p = candidateProbabilities.flatMap { $0.count == candidates.count ? $0 : nil }
    var text = ""
    for k in candidates.indices {
      if k > 0 { text += ";" }
      text += candidates[k]
      if let p {
        text += "="
        text += NumberFormat.format(p[k])
      }
    }
    return text
  }

  /// The logging probability of showing instance `id`: 0 when it is not a candidate,
  /// `propensity` when it is the shown one, the stated probability otherwise, nil when the
  /// log states none.
  public func loggingProbability(of id: String) -> Double? {
    guard let k = candidates.firstIndex(of: id) else { return 0 }
    if id == shown { return propensity }
    return candidateProbabilities?[k]
  }
}

/// Which rule decided what a visit showed (exposure log version 2, column `rule`): the
/// strategy's ranking (`rank`), a swipe pin (`pin`), the rotation limit (`limit`),
/// Smart Rotate off (`smart-rotate-off`), or suppression (`suppressed`: the strategy's
/// first candidate was suppressed and the stack showed the first allowed one).
public enum ExposureRule: String, Sendable, Hashable, CaseIterable {
  case rank, pin, limit
  case smartRotateOff = "smart-rotate-off"
  case suppressed

  /// The column's value for the rule that decided an engine visit
  /// (`VisitOutcome.decidedBy`).
  public init(_ rule: VisitRule) {
    switch rule {
    case .strategy: self = .rank
    case .pin, .pinnedCard: self = .pin  // a watch's pinned card is a pin (watch runs log no exposures)
    case .rotationLimit: self = .limit
    case .smartRotateOff: self = .smartRotateOff
    case .suppressed: self = .suppressed
    }
  }

  /// True for a rule that fixed the shown widget whatever the strategy ranked.
  public var isForcing: Bool { self == .pin || self == .limit || self == .smartRotateOff }
}

/// An exposure log: the visits of one logging strategy, in file order.
public struct ExposureLog: Sendable, Hashable {
  /// The logging strategy (its command-line form, e.g. `random` or
  /// `epsilon:base=mfu:rate=0.1`; free text for a field study's app).
  public var loggingStrategy: String
  /// The visits, in file order (per person in time order).
  public var exposures: [Exposure]

  public init(loggingStrategy: String, exposures: [Exposure]) {
    self.loggingStrategy = loggingStrategy
    self.exposures = exposures
  }

  /// The smallest propensity a log may state (a weight of at most 10⁶); smaller ones are
  /// refused at their field.
  public static let minimumPropensity = 1e-6
  /// The most candidates a row may list: a stack holds at most 10 widgets plus suggested
  /// ones, and a bound keeps memory proportional to the file.
  public static let maximumCandidates = 64

  /// 2 when every row has the version-2 columns (`action`, `want_app`, `rule`), else 1.
  public var version: Int {
    !exposures.isEmpty && exposures.allSatisfy { $0.action != nil && $0.rule != nil } ? 2 : 1
  }

  /// The version-1 columns, in the order `csvText()` writes them. `ExposureLog.read`
  /// requires `requiredColumns` and accepts the others missing.
  public static let columnsVersion1 = [
    "logging_strategy", "person", "time", "epoch_ms", "candidates", "shown", "propensity", "estimated",
    "forced", "reward", "hit", "target",
  ]
  /// The columns version 2 adds (all of them or none; `swiped_to` may be empty).
  public static let columnsVersion2 = ["action", "swiped_to", "want_app", "rule"]
  /// Every column a log may have.
  public static let columns = columnsVersion1 + columnsVersion2
  /// Columns a log must have.
  public static let requiredColumns = [
    "logging_strategy", "person", "time", "candidates", "shown", "propensity", "reward", "hit",
  ]

  /// The log as CSV (`columns`): one row per visit in order; `time` ISO 8601 UTC,
  /// `epoch_ms` the same instant in milliseconds; `candidates` the instance ids joined by
  /// `;`, each followed by `=probability` when the probabilities are known
  /// (`weather=0.25;news=0.75`); `target` instance ids joined by `;`; `propensity` in Swift's shortest round-trip form; `estimated`,
  /// `reward` and `hit` 0 or 1. LF line ends, minimal quoting (`CSVWriter`).
  ///
  /// - Complexity: O(size of the output).
  public func csvText() -> String {
    let two = version == 2
    var csv = CSVWriter(header: two ? Self.columns : Self.columnsVersion1)
    for e in exposures {
      csv.append(loggingStrategy)
      csv.append(e.person)
      csv.append(ISO8601.format(Instant(milliseconds: e.time)))
      csv.append(String(e.time))
      csv.append(e.candidatesText)
      csv.append(e.shown)
      csv.append(e.propensity)
      csv.append(e.estimated ? 1 : 0)
      csv.append(e.forced ? 1 : 0)
      csv.append(e.reward ? 1 : 0)
      csv.append(e.hit ? 1 : 0)
      csv.append(e.targets.joined(separator: ";"))
      if two {
        csv.append(e.action!.name)
        csv.append(e.swipedTo)
        csv.append(e.wantApp)
        csv.append(e.rule!.rawValue)
      }
      csv.endRow()
    }
    return csv.text
  }

  /// The people in order of first appearance.
  public var people: [String] {
    var seen: [String: Int] = [:]
    var order: [String] = []
    for e in exposures where seen[e.person] == nil {
      seen[e.person] = order.count
      order.append(e.person)
    }
    return order
  }
}
