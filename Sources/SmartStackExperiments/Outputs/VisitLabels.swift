import SmartStackBase
import SmartStackData
import SmartStackEngine

/// The names a per-visit recorder writes (`TraceRecorder`, `ExposureRecorder`): the
/// current person's name and the ids of their stack's instances.
public struct VisitLabels: Sendable {
  /// The run's people by dense id.
  public let personNames: [String]
  /// The current person's instance ids, by instance index.
  public private(set) var instanceIDs: [String] = []
  /// The current person's name (their dense id when `personNames` lacks it).
  public private(set) var person = ""

  public init(personNames: [String]) { self.personNames = personNames }

  /// Switches to `person` and their `instances` (`OutcomeObserver.beginPerson`).
  public mutating func begin(_ person: Int32, instances: [WidgetInstance]) {
    instanceIDs = instances.map(\.id)
    let i = Int(person)
    self.person = i >= 0 && i < personNames.count ? personNames[i] : String(person)
  }

  /// The id of instance `i`, or nil when `i` is not one (e.g. -1: nothing shown).
  public func id(_ i: Int32) -> String? { i >= 0 && Int(i) < instanceIDs.count ? instanceIDs[Int(i)] : nil }
}
