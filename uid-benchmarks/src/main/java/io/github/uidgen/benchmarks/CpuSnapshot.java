package io.github.uidgen.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU counters of {@code /proc/stat} and of this process with its finished children, so the report can say how
 * much of the machine other processes used during a part of the run and how much the hypervisor stole.
 *
 * @param busy machine-wide busy ticks (user, nice, system, irq, softirq)
 * @param steal machine-wide ticks stolen by the hypervisor
 * @param total all machine-wide ticks
 * @param ours ticks used by this JVM and the benchmark JVMs it started and waited for
 */
record CpuSnapshot(long busy, long steal, long total, long ours) {

	private static final CpuSnapshot UNKNOWN = new CpuSnapshot(0, 0, 0, 0);

	static CpuSnapshot take() {
		try {
			String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
			long user = Long.parseLong(f[1]);
			long nice = Long.parseLong(f[2]);
			long system = Long.parseLong(f[3]);
			long idle = Long.parseLong(f[4]);
			long iowait = Long.parseLong(f[5]);
			long irq = Long.parseLong(f[6]);
			long softirq = Long.parseLong(f[7]);
			long steal = (f.length > 8) ? Long.parseLong(f[8]) : 0;
			long busy = user + nice + system + irq + softirq;
			String self = Files.readString(Path.of("/proc/self/stat"));
			String[] s = self.substring(self.lastIndexOf(')') + 2).trim().split("\\s+");
			// utime, stime, cutime, cstime are fields 14 to 17; the array starts at field 3.
			long ours = Long.parseLong(s[11]) + Long.parseLong(s[12]) + Long.parseLong(s[13]) + Long.parseLong(s[14]);
			return new CpuSnapshot(busy, steal, busy + idle + iowait + steal, ours);
		}
		catch (IOException | RuntimeException ex) {
			return UNKNOWN;
		}
	}

	/**
	 * Describes how the machine's CPU time was spent between an earlier snapshot and this one.
	 * @param earlier the snapshot taken first
	 * @return for example {@code "other processes 3%, ours 61%, steal 1% of 2 cores"}
	 */
	String since(CpuSnapshot earlier) {
		long total = this.total - earlier.total;
		if (total <= 0) {
			return "unknown";
		}
		long busy = this.busy - earlier.busy;
		long ours = this.ours - earlier.ours;
		return String.format("other processes %d%%, ours %d%%, hypervisor steal %d%% of the machine",
				100 * Math.max(0, busy - ours) / total, 100 * Math.min(ours, busy) / total,
				100 * (this.steal - earlier.steal) / total);
	}

	/**
	 * Measures how busy the machine is over a short window while nothing of ours runs.
	 * @param millis the window
	 * @return a description
	 */
	static String sample(long millis) {
		CpuSnapshot before = take();
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return take().since(before);
	}

}
