package io.github.uidgen.worker.support;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.github.uidgen.worker.WorkerLeaseLostException;

/**
 * The token of each lease a lease assigner holds. Every claim carries a fresh token and a renewal or release only
 * matches with it, so an instance that lost its lease can never renew or release the next holder's.
 */
public final class LeaseTokens {

	private final Map<Long, String> tokens = new ConcurrentHashMap<>();

	/**
	 * Returns a fresh token for one claim attempt.
	 * @return a random token
	 */
	public static String newToken() {
		return UUID.randomUUID().toString();
	}

	/**
	 * Records the token of a successful claim.
	 * @param workerId the claimed worker ID
	 * @param token the claim's token
	 */
	public void hold(long workerId, String token) {
		this.tokens.put(workerId, token);
	}

	/**
	 * Returns the token to renew a lease with.
	 * @param workerId the worker ID
	 * @return the token
	 * @throws WorkerLeaseLostException when this assigner holds no lease on the worker ID
	 */
	public String require(long workerId) {
		String token = this.tokens.get(workerId);
		if (token == null) {
			throw new WorkerLeaseLostException(workerId, "this assigner holds no lease on it");
		}
		return token;
	}

	/**
	 * Forgets a token whose lease turned out to be lost, unless a newer claim replaced it meanwhile.
	 * @param workerId the worker ID
	 * @param token the token the renewal failed with
	 */
	public void lost(long workerId, String token) {
		this.tokens.remove(workerId, token);
	}

	/**
	 * Removes the token to release a lease with.
	 * @param workerId the worker ID
	 * @return the token, or {@code null} when this assigner holds no lease on the worker ID
	 */
	public String release(long workerId) {
		return this.tokens.remove(workerId);
	}

}
