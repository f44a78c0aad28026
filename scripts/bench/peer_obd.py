"""Peer for row 3: pandas reads the OBD log and to_sql writes long-format samples into sqlite.

    peer_obd.py torque FILE.csv DB     pandas read_csv + melt + to_sql
    peer_obd.py elm FILE.log DB        a line loop decoding the four PIDs + DataFrame.to_sql
Prints the number of samples written.
"""
import sqlite3
import sys

import pandas as pd

EPOCH = pd.Timestamp("1970-01-01", tz="UTC")
kind, path, db_path = sys.argv[1:4]
db = sqlite3.connect(db_path)
if kind == "torque":
    df = pd.read_csv(path, na_values=["-"], skipinitialspace=True, encoding="utf-8")
    df["at"] = pd.to_datetime(df["Device Time"].str.replace(" CDT", "-05:00", regex=False), format="%d-%b-%Y %H:%M:%S.%f%z")
    df["at"] = (df["at"] - EPOCH) // pd.Timedelta(milliseconds=1)
    pids = {"Engine RPM(rpm)": 0x0C, "Speed (OBD)(km/h)": 0x0D, "Engine Coolant Temperature(\u00b0C)": 0x05,
            "Fuel Level (From Engine ECU)(%)": 0x2F}
    long = df[["at"] + list(pids)].melt(id_vars="at", var_name="pid", value_name="value").dropna()
    long["pid"] = long["pid"].map(pids)
else:
    formulas = {0x0C: lambda b: (256 * b[0] + b[1]) / 4, 0x0D: lambda b: b[0], 0x05: lambda b: b[0] - 40,
                0x2F: lambda b: 100 * b[0] / 255}
    rows = []
    with open(path) as f:
        for line in f:
            stamp, _, text = line.rstrip("\n").partition(" ")
            if not text.startswith("41 "):
                continue
            b = [int(x, 16) for x in text.split()]
            rows.append((stamp, b[1], formulas[b[1]](b[2:])))
    long = pd.DataFrame(rows, columns=["at", "pid", "value"])
    long["at"] = (pd.to_datetime(long["at"], format="%Y-%m-%dT%H:%M:%S%z") - EPOCH) // pd.Timedelta(milliseconds=1)
long["asset_id"] = 1
long.to_sql("obd_sample", db, index=False, chunksize=100_000)
db.commit()
print(len(long))
