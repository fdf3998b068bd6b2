package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.fleet.WorkerClaim;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;

/**
 * The claims of one worker ID as its claims znode holds them, newest first: one line per claim, so an operator can
 * read it with {@code zkCli.sh get}. Both ZooKeeper assigners keep one such znode per worker ID, rewritten over the
 * version read in the transaction that claims or releases the worker ID.
 *
 * <p>A line is {@code <from>\t<to>\t<mark>\t<end>\t<host>\t<instance>}: epoch milliseconds (the last two empty when
 * unknown), the end's name, then the host and the instance ID, the instance last so that it may hold tabs.
 *
 * @param claims the claims, newest first
 */
record ClaimList(List<Claim> claims) {

	/**
	 * Bytes the text may take before the oldest claims go even within the configured count: ZooKeeper refuses a
	 * request over {@code jute.maxbuffer} (1 MiB by default), and the transaction carries the list with the rest.
	 */
	static final int MAX_BYTES = 768 * 1024;

	/** The longest host or instance ID kept in a line; longer ones are cut, so the list stays within its bytes. */
	private static final int MAX_NAME_LENGTH = 255;

	private static final String HEADER = "format=1\n";

	static final ClaimList EMPTY = new ClaimList(List.of());

	/**
	 * A claims znode as read.
	 * @param list the claims
	 * @param version the znode's version, -1 when there is none (never claimed since history was kept)
	 */
	record Stored(ClaimList list, int version) {

		static final Stored NONE = new Stored(EMPTY, -1);

		/**
		 * Returns the transaction step that writes a new list over this one: a rewrite over the version read, or the
		 * creation of the znode when there was none; either fails the transaction if another wrote first.
		 */
		CuratorOp writeOp(CuratorFramework client, String path, ClaimList next) throws Exception {
			return (this.version >= 0)
					? client.transactionOp().setData().withVersion(this.version).forPath(path, next.encode())
					: client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(path, next.encode());
		}

	}

	ClaimList {
		claims = List.copyOf(claims);
	}

	/**
	 * One claim; {@code toMillis} is -1 while it is open.
	 */
	record Claim(long fromMillis, long toMillis, long afterMarkMillis, ClaimEnd end, String host, String instanceId) {

		Claim closed(ClaimEnd how, long atMillis) {
			return new Claim(this.fromMillis, Math.max(this.fromMillis, atMillis), this.afterMarkMillis, how, this.host,
					this.instanceId);
		}

		WorkerClaim toWorkerClaim(long workerId) {
			return new WorkerClaim(workerId, this.instanceId, this.host, Instant.ofEpochMilli(this.fromMillis),
					(this.toMillis < 0) ? null : Instant.ofEpochMilli(this.toMillis), this.afterMarkMillis, this.end);
		}

		private String line() {
			return this.fromMillis + "\t" + ((this.toMillis < 0) ? "" : Long.toString(this.toMillis)) + "\t"
					+ ((this.afterMarkMillis == WorkerAssignment.NO_MARK) ? "" : Long.toString(this.afterMarkMillis))
					+ "\t" + this.end.name() + "\t" + name(this.host).replace('\t', ' ') + "\t" + name(this.instanceId)
					+ "\n";
		}

	}

	/**
	 * Returns whether the newest claim is still open.
	 * @return whether there is an open newest claim
	 */
	boolean newestOpen() {
		return !this.claims.isEmpty() && this.claims.get(0).end() == ClaimEnd.OPEN;
	}

	/**
	 * Returns the list with its newest claim closed, if it is open; else this list.
	 * @param how released or expired
	 * @param atMillis when it ended; never before it began
	 * @return the list
	 */
	ClaimList closeNewest(ClaimEnd how, long atMillis) {
		if (!newestOpen()) {
			return this;
		}
		List<Claim> list = new ArrayList<>(this.claims);
		list.set(0, list.get(0).closed(how, atMillis));
		return new ClaimList(list);
	}

	/**
	 * Returns the list with a new open claim in front, pruned to the newest {@code keep} (and to {@link #MAX_BYTES}).
	 * @return the list
	 */
	ClaimList open(long fromMillis, long afterMarkMillis, String host, String instanceId, int keep) {
		List<Claim> list = new ArrayList<>(Math.min(keep, this.claims.size() + 1));
		list.add(new Claim(fromMillis, -1, afterMarkMillis, ClaimEnd.OPEN, host, instanceId));
		int bytes = HEADER.length() + list.get(0).line().getBytes(StandardCharsets.UTF_8).length;
		for (Claim claim : this.claims) {
			bytes += claim.line().getBytes(StandardCharsets.UTF_8).length;
			if (list.size() >= keep || bytes > MAX_BYTES) {
				break;
			}
			list.add(claim);
		}
		return new ClaimList(list);
	}

	/**
	 * Returns the claims for the fleet's reader.
	 * @param workerId the worker ID they belong to
	 * @return the claims, newest first
	 */
	List<WorkerClaim> toWorkerClaims(long workerId) {
		return this.claims.stream().map((claim) -> claim.toWorkerClaim(workerId)).toList();
	}

	byte[] encode() {
		StringBuilder text = new StringBuilder(HEADER);
		for (Claim claim : this.claims) {
			text.append(claim.line());
		}
		return text.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Reads a list written by {@link #encode()}; lines it cannot read are left out (an operator's edit), so that one
	 * bad line neither hides the rest nor stops a claim.
	 * @param data the znode's data, {@code null} for none
	 * @return the list
	 */
	static ClaimList decode(byte[] data) {
		if (data == null) {
			return EMPTY;
		}
		String[] lines = new String(data, StandardCharsets.UTF_8).split("\n");
		if (lines.length == 0 || !HEADER.strip().equals(lines[0])) {
			return EMPTY;
		}
		List<Claim> claims = new ArrayList<>(lines.length - 1);
		for (int i = 1; i < lines.length; i++) {
			String[] fields = lines[i].split("\t", 6);
			if (fields.length == 6) {
				try {
					claims.add(new Claim(Long.parseLong(fields[0]), fields[1].isEmpty() ? -1 : Long.parseLong(fields[1]),
							fields[2].isEmpty() ? WorkerAssignment.NO_MARK : Long.parseLong(fields[2]),
							ClaimEnd.valueOf(fields[3]), fields[4], fields[5]));
				}
				catch (IllegalArgumentException ex) {
					// Not a line of ours: left out.
				}
			}
		}
		return new ClaimList(claims);
	}

	private static String name(String name) {
		String oneLine = (name == null) ? "" : name.replace('\n', ' ').replace('\r', ' ');
		return (oneLine.length() > MAX_NAME_LENGTH) ? oneLine.substring(0, MAX_NAME_LENGTH) : oneLine;
	}

}
