// The system SQLite (https://sqlite.org), as the Swift module CSQLite.
//
// SmartStackKit uses it to read device databases (Importers/Device/SQLiteDatabase.swift:
// CoreDuet's knowledgeC.db, PowerLog's CurrentPowerlog.PLSQL). Two things of sqlite3.h
// Swift cannot use directly are spelled out below: the SQLITE_TRANSIENT destructor (a
// macro casting -1 to a function pointer) and sqlite3_db_config (a variadic function).
#ifndef SMARTSTACK_CSQLITE_SHIM_H
#define SMARTSTACK_CSQLITE_SHIM_H

#include <sqlite3.h>

/// sqlite3_bind_text with SQLITE_TRANSIENT: SQLite copies the n bytes of text before
/// returning, so the caller's buffer need only live for the call.
static inline int csqlite_bind_text_transient(sqlite3_stmt *statement, int index,
                                              const char *text, int n) {
  return sqlite3_bind_text(statement, index, text, n, SQLITE_TRANSIENT);
}

/// sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, NULL): with on = 1, closing
/// the last connection to a WAL database leaves the -wal file as it is instead of
/// checkpointing it into the database (used by tests to build WAL-only rows).
static inline int csqlite_no_checkpoint_on_close(sqlite3 *db, int on) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}

#endif
