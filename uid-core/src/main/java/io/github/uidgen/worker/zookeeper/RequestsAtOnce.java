package io.github.uidgen.worker.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import org.apache.curator.RetryLoop;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;

/**
 * Sends the {@link WorkerRegistry}'s reads without waiting between them: in the background, pipelined on the
 * session's connection (one round trip's wait, not one per request; ZooKeeper answers a session's requests in the
 * order sent), or as one multi-read; kept apart so that the registry's znodes and transactions read in one place.
 */
final class RequestsAtOnce {

	/** How long requests sent together may take to be answered; Curator retries each one lost meanwhile. */
	private static final Duration READ_BOUND = Duration.ofSeconds(30);

	private final CuratorFramework client;

	private final CuratorCalls calls;

	RequestsAtOnce(CuratorFramework client, CuratorCalls calls) {
		this.client = client;
		this.calls = calls;
	}

	/** One request sent in the background, its answer handed to the callback. */
	@FunctionalInterface
	interface Request {

		void send(BackgroundCallback callback) throws Exception;

	}

	/**
	 * Lists the children of several znodes in one multi-read, which the ensemble answers from one state of its tree:
	 * no write lands between two of its listings. A claim's place among the claims in flight and the worker IDs they
	 * took must come from the same state, or a claim ahead that took its worker ID in between is counted twice or
	 * not at all, and this claim tries another claimant's worker ID: a race lost, and the loser's next try met the
	 * next claimant's (listed one after the other, pipelined, the claims of a fleet of 1,000 starting at once lost
	 * up to 14 races each at p99). Needs ZooKeeper 3.6 or newer, which introduced the multi-read. Further znodes read
	 * in it tell only that they exist: an assigner's first claim learns so that the namespace's paths are there, which
	 * cost it a round trip of its own before.
	 * @param paths the znodes whose children to list
	 * @param thereToo further znodes that must exist; when none are given, a missing znode fails as any other answer
	 * @return the children, in the order of the paths; {@code null} when a znode, listed or not, is missing and
	 * {@code thereToo} named some
	 */
	List<List<String>> childrenAtOnce(List<String> paths, List<String> thereToo) {
		String namespace = this.client.getNamespace();
		List<Op> ops = new ArrayList<>(paths.size() + thereToo.size());
		paths.forEach((path) -> ops.add(Op.getChildren(ZKPaths.fixForNamespace(namespace, path))));
		thereToo.forEach((path) -> ops.add(Op.getData(ZKPaths.fixForNamespace(namespace, path))));
		List<OpResult> results = this.calls.call(() -> {
			try {
				return RetryLoop.callWithRetry(this.client.getZookeeperClient(),
						() -> this.client.getZookeeperClient().getZooKeeper().multi(ops));
			}
			catch (KeeperException.UnimplementedException ex) {
				throw new WorkerAssignmentException("ZooKeeper at " + this.calls.connectString() + " does not "
						+ "answer a multi-read, which uid's worker-ID claims need: use ZooKeeper 3.6 or newer.", ex);
			}
		});
		List<List<String>> children = new ArrayList<>(paths.size());
		for (int i = 0; i < results.size(); i++) {
			OpResult result = results.get(i);
			if (result instanceof OpResult.GetChildrenResult listed) {
				children.add(listed.getChildren());
			}
			else if (!(result instanceof OpResult.GetDataResult)) {
				int code = (result instanceof OpResult.ErrorResult error) ? error.getErr()
						: KeeperException.Code.SYSTEMERROR.intValue();
				if (code == KeeperException.Code.NONODE.intValue() && !thereToo.isEmpty()) {
					return null;
				}
				fail(KeeperException.Code.get(code), (i < paths.size()) ? paths.get(i) : thereToo.get(i - paths.size()));
			}
		}
		return children;
	}

	/**
	 * Sends requests all at once, pipelined on the session's connection (one round trip's wait, not one per request;
	 * ZooKeeper answers a session's requests in the order sent), and waits for every answer within
	 * {@link #READ_BOUND}.
	 * @param requests the requests
	 * @param what what they are, for the message when they are not all answered in time
	 * @return the answers, in the order of the requests
	 */
	CuratorEvent[] pipelined(List<Request> requests, String what) {
		return send(requests).await(what);
	}

	/** Sends requests all at once, pipelined on the session's connection, without waiting for their answers. */
	Pending send(List<Request> requests) {
		Pending pending = new Pending(requests.size());
		for (int i = 0; i < requests.size(); i++) {
			int index = i;
			Request request = requests.get(i);
			this.calls.call(() -> {
				request.send((client, event) -> pending.answered(index, event));
				return null;
			});
		}
		return pending;
	}

	/** The answers to requests sent in the background, as they come. */
	final class Pending {

		private final CuratorEvent[] answers;

		private final CountDownLatch answered;

		Pending(int requests) {
			this.answers = new CuratorEvent[requests];
			this.answered = new CountDownLatch(requests);
		}

		void answered(int index, CuratorEvent event) {
			this.answers[index] = event;
			this.answered.countDown();
		}

		/**
		 * Waits for every answer within {@link #READ_BOUND}.
		 * @param what what the requests are, for the message when they are not all answered in time
		 * @return the answers, in the order of the requests
		 */
		CuratorEvent[] await(String what) {
			boolean complete = RequestsAtOnce.this.calls
				.call(() -> this.answered.await(READ_BOUND.toMillis(), TimeUnit.MILLISECONDS));
			if (!complete) {
				throw new WorkerStoreUnavailableException("ZooKeeper at " + RequestsAtOnce.this.calls.connectString()
						+ " answered " + (this.answers.length - this.answered.getCount()) + " of "
						+ this.answers.length + " " + what + " within " + READ_BOUND.toMillis() + " ms.", null);
			}
			return this.answers;
		}

	}

	/** Turns an answer that is not OK into the exception its synchronous call would have thrown. */
	void requireOk(CuratorEvent answer) {
		KeeperException.Code code = KeeperException.Code.get(answer.getResultCode());
		if (code != KeeperException.Code.OK) {
			fail(code, answer.getPath());
		}
	}

	/** Throws what a synchronous call on the path would have thrown for the code, as the assigner's exception. */
	private void fail(KeeperException.Code code, String path) {
		this.calls.call(() -> {
			throw KeeperException.create(code, path);
		});
	}

}
