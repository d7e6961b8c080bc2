/// SmartStackKit: the library behind the `smartstack` command.
///
/// See README.md for the concepts and DESIGN.md for the definitions results depend on.
public enum SmartStackKit {
  /// The toolkit version, written into every manifest.
  public static let version = "0.1.0"
}
