-- A small CurrentPowerlog.PLSQL, hand-written for the tests (tables and columns as
-- iLEAPP's scripts/artifacts/powerlog.py reads them; the widget table is made up: its
-- only known column is isInStack). Times are Unix seconds on PowerLog's clock.
CREATE TABLE PLStorageOperator_EventForward_TimeOffset (ID INTEGER PRIMARY KEY,
  timestamp REAL, system REAL);
CREATE TABLE PLSpringBoardAgent_EventForward_SBLock (ID INTEGER PRIMARY KEY,
  timestamp REAL, Locked INTEGER);
CREATE TABLE PLApplicationAgent_EventForward_Application (ID INTEGER PRIMARY KEY,
  timestamp REAL, Identifier TEXT, pid INTEGER, State INTEGER, Reason INTEGER);
CREATE TABLE PLBatteryAgent_EventBackward_Battery (ID INTEGER PRIMARY KEY,
  timestamp REAL, Level REAL, IsCharging INTEGER, ExternalConnected INTEGER);
CREATE TABLE PLTestAgent_Aggregate_Widgets (ID INTEGER PRIMARY KEY, timestamp REAL,
  isInStack INTEGER, widgetKind TEXT, widgetSize INTEGER, onScreenSeconds REAL);
-- offsets: +100 s from raw 1772438000, +40 s from raw 1772440000
INSERT INTO PLStorageOperator_EventForward_TimeOffset (timestamp, system) VALUES
  (1772440000, 40), (1772438000, 100);
-- raw 1772437900 is before the first offset row (uses +100)
INSERT INTO PLSpringBoardAgent_EventForward_SBLock (timestamp, Locked) VALUES
  (1772437900, 0), (1772438300, 1), (1772440100.5, 0);
INSERT INTO PLApplicationAgent_EventForward_Application (timestamp, Identifier, pid, State, Reason) VALUES
  (1772438310, 'com.example.coffee', 10, 8, 0),
  (1772438320, 'com.example.coffee', 10, 32, 0),
  (1772438330, 'com.example.coffee', 10, 8, 0),
  (1772438340, 'com.example.coffee', 10, 4, 0),
  (1772440200, 'com.example.coffee', 10, 8, 0),
  (1772440210, 'com.example.chat', 11, 8, 0),
  (1772440220, '', 12, 8, 0);
INSERT INTO PLTestAgent_Aggregate_Widgets (timestamp, isInStack, widgetKind, widgetSize, onScreenSeconds) VALUES
  (1772440300, 1, 'CoffeeWidget', 2, 12.5);
-- battery samples (--context-out): charging from raw 1772438000 (07:55:00Z after the
-- offset), a repeated sample, full and no longer charging at raw 1772438400 while still
-- connected, unplugged at raw 1772440100
INSERT INTO PLBatteryAgent_EventBackward_Battery (timestamp, Level, IsCharging, ExternalConnected) VALUES
  (1772438000, 99, 1, 1), (1772438020, 99, 1, 1), (1772438400, 100, 0, 1),
  (1772440100, 100, 0, 0);
