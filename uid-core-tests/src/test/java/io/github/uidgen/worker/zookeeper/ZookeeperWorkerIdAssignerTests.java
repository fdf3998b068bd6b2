package io.github.uidgen.worker.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayZooKeeper;
import io.github.uidgen.worker.AllWorkerIdsLeasedException;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.fleet.WorkerState;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.drivers.TracerDriver;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What only the ZooKeeper assigner does when it claims, beyond the shared contract: its znodes and what a start
 * writes, the rounds of claims at the same moment, large registries and owner znodes, a client's own namespace, marks
 * far ahead of the clock passed over, paths refused, and its defaults. What a holder sees when its session ends or the
 * server goes away is in {@link ZookeeperSessionTests}. Tests that count writes start a server of their own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ZookeeperWorkerIdAssignerTests extends AbstractZookeeperWorkerIdAssignerTests {

	private ThrowawayZooKeeper shared;

	private CuratorFramework client;

	@BeforeAll
	void startServer() {
		this.shared = ThrowawayZooKeeper.start();
		this.client = this.shared.newClient(Duration.ofSeconds(30));
	}

	@AfterAll
	void stopServer() {
		this.client.close();
		this.shared.close();
	}

	@Test
	void aFreeWorkerIdWhoseMarkLiesFarAheadIsPassedOverWhileAnotherIsFree() {
		String namespace = TestRedis.uniqueNamespace("ahead");
		long farAhead = System.currentTimeMillis() + TimeUnit.HOURS.toMillis(1);
		ZookeeperWorkerIdAssigner fastClock = assigner(this.client, namespace, "fast-clock");
		long aheadId = fastClock.assign(MAX_WORKER_ID).workerId();
		fastClock.renew(aheadId, farAhead);
		fastClock.release(aheadId, farAhead);
		Duration lead = Duration.ofSeconds(10);

		WorkerAssignment newcomer = assigner(this.client, namespace, "newcomer").assign(MAX_WORKER_ID, lead);
		assertThat(newcomer.workerId()).as("the lowest free worker ID carries a mark an hour ahead")
			.isNotEqualTo(aheadId);
		assertThat(newcomer.hasMark()).isFalse();
		WorkerAssignment restarted = assigner(this.client, namespace, "fast-clock").assign(MAX_WORKER_ID, lead);
		assertThat(restarted.workerId()).as("not even its previous holder takes it back while others are free")
			.isNotIn(aheadId, newcomer.workerId());

		long onlyFree = Math.max(newcomer.workerId(), restarted.workerId());
		WorkerAssignment last = assigner(this.client, namespace, "last").assign(onlyFree, lead);
		assertThat(last.workerId()).as("taken when nothing else is free").isEqualTo(aheadId);
		assertThat(last.highWaterMarkMillis()).isEqualTo(farAhead);

		String other = TestRedis.uniqueNamespace("ahead");
		ZookeeperWorkerIdAssigner holder = assigner(this.client, other, "holder");
		long id = holder.assign(MAX_WORKER_ID).workerId();
		holder.renew(id, farAhead);
		holder.release(id, farAhead);
		assertThat(assigner(this.client, other, "patient").assign(MAX_WORKER_ID, Duration.ofHours(2)).workerId())
			.as("within the lead the lowest free worker ID is fine")
			.isEqualTo(id);
	}

	@Test
	void theZnodesSayWhoHoldsWhatAndTheLeaseZnodeBelongsToTheHoldersSession() throws Exception {
		ZookeeperWorkerIdAssigner assigner = ZookeeperWorkerIdAssigner.builder(this.client)
			.rootPath("/services/ids")
			.namespace("orders-" + TestRedis.uniqueNamespace("z"))
			.leaseDuration(LEASE)
			.instanceId("reader:8080")
			.build();
		long workerId = assigner.assign(MAX_WORKER_ID).workerId();
		assigner.renew(workerId, 1_760_000_000_000L);
		String worker = assigner.getBasePath() + "/workers/" + workerId;
		String lease = assigner.getBasePath() + "/leases/" + workerId;
		assertThat(assigner.getBasePath()).startsWith("/services/ids/orders-");
		// The record's lease is how long the worker ID stays the holder's without a renewal: the 60 s lease, or the
		// session's 30 s timeout, as ZooKeeper deletes the lease znode once the session has gone unheard that long.
		assertThat(new String(this.client.getData().forPath(worker), StandardCharsets.UTF_8))
			.contains("instance=reader:8080\n", "lease=30000\n", "mark=1760000000000\n")
			.containsPattern("token=[0-9a-f-]{36}\n");
		Stat leaseStat = this.client.checkExists().forPath(lease);
		assertThat(leaseStat.getEphemeralOwner())
			.isEqualTo(this.client.getZookeeperClient().getZooKeeper().getSessionId());

		assigner.release(workerId, 1_760_000_005_000L);
		assertThat(this.client.checkExists().forPath(lease)).isNull();
		assertThat(new String(this.client.getData().forPath(worker), StandardCharsets.UTF_8))
			.contains("token=\n", "mark=1760000005000\n");
	}

	/**
	 * An instance starting in a namespace in use writes the ensemble's clock and its claim's transaction, and nothing
	 * else: the layout and the namespace's paths are read, not created again. Every create the ensemble refuses is
	 * still a write it logs (in a multi, or on its own), counted here by the zxids of two writes of the test's own
	 * around the start, on a server nobody else uses.
	 */
	@Test
	void aStartInANamespaceInUseWritesOnlyTheClockAndItsClaim() throws Exception {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start();
				CuratorFramework own = zooKeeper.newClient(Duration.ofSeconds(30))) {
			ZookeeperWorkerIdAssigner first = assigner(own, "in-use", "first");
			first.recordLayout(UidLayout.defaults());
			long firstId = first.assign(MAX_WORKER_ID).workerId();

			long before = writeZxid(own, "/before");
			ZookeeperWorkerIdAssigner next = assigner(own, "in-use", "next");
			next.recordLayout(UidLayout.defaults());
			long nextId = next.assign(MAX_WORKER_ID).workerId();
			long after = writeZxid(own, "/after");

			assertThat(nextId).isNotEqualTo(firstId);
			assertThat(after - before - 1).as("writes logged between the two of the test: the clock and the claim")
				.isEqualTo(2);
		}
	}

	/**
	 * A new namespace's first start records its layout and creates the namespace's six paths in one transaction, so
	 * that the instances of a fleet that find the namespace new at the same moment find the paths there at their first
	 * claim, which writes only its queue entry and its take. A namespace that holds some of the paths and no layout
	 * (by hand here, as an older version or an operator may leave it) gets its layout alone, and its first claim,
	 * finding the others missing, creates them. Writes counted, as above, by the zxids around the claims.
	 */
	@Test
	void aNewNamespacesPathsAreCreatedWithItsLayoutAndItsFirstClaimWritesOnlyItsQueueEntryAndTake() throws Exception {
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start();
				CuratorFramework own = zooKeeper.newClient(Duration.ofSeconds(30))) {
			List<String> paths = List.of("claimants", "claims", "clock", "layout", "leases", "owners", "workers");
			ZookeeperWorkerIdAssigner first = assigner(own, "new", "first");
			first.recordLayout(UidLayout.defaults());
			assertThat(own.getChildren().forPath(first.getBasePath())).as("made with the layout")
				.containsExactlyInAnyOrderElementsOf(paths);
			long before = writeZxid(own, "/before");
			assertThat(first.assign(MAX_WORKER_ID).workerId()).isZero();
			long after = writeZxid(own, "/after");
			assertThat(after - before - 1).as("writes logged by the claim: its queue entry and its take").isEqualTo(2);

			ZookeeperWorkerIdAssigner partly = assigner(own, "partly", "partly");
			own.create().creatingParentsIfNeeded().forPath(partly.getBasePath() + "/workers");
			own.create().forPath(partly.getBasePath() + "/clock");
			partly.recordLayout(UidLayout.defaults());
			assertThat(own.getChildren().forPath(partly.getBasePath())).as("the layout alone")
				.containsExactlyInAnyOrder("clock", "layout", "workers");
			assertThat(partly.assign(MAX_WORKER_ID).workerId()).isZero();
			assertThat(own.getChildren().forPath(partly.getBasePath())).containsExactlyInAnyOrderElementsOf(paths);
		}
	}

	/**
	 * A claim waits on no read of its own, only on its writes: its queue entry goes with its listings and the
	 * worker znodes it reads are pipelined, and it waits for each request one at a time only for its take. In a
	 * namespace whose layout was recorded with its paths, the first claim learns in its listing that they are there;
	 * an instance taking its own worker ID back reads that worker ID's claims with its znode. Each request waited on
	 * alone is a round trip of its own, which at a fleet's start of 1,000 queues behind the others' writes: the first
	 * claim read the namespace's children first, and a claim of its own worker ID its claims before the take. Counted
	 * by Curator's tracer, which names a request waited on alone "…-Foreground".
	 */
	@Test
	void aClaimWaitsAloneOnlyForItsTakeInANewNamespaceAndForItsOwnWorkerIdBack() throws Exception {
		String namespace = TestRedis.uniqueNamespace("round-trips");
		try (CuratorFramework counted = this.shared.newClient(Duration.ofSeconds(30))) {
			List<String> traces = traces(counted);
			ZookeeperWorkerIdAssigner first = assigner(counted, namespace, "returning");
			first.recordLayout(UidLayout.defaults());
			traces.clear();
			long id = first.assign(MAX_WORKER_ID).workerId();
			assertThat(traces).filteredOn((name) -> name.endsWith("-Foreground"))
				.as("the first claim in a new namespace")
				.containsExactly("CuratorMultiTransactionImpl-Foreground");
			assigner(counted, namespace, "other").assign(MAX_WORKER_ID);
			first.release(id, 1_760_000_000_000L);

			ZookeeperWorkerIdAssigner again = assigner(counted, namespace, "returning");
			again.recordLayout(UidLayout.defaults());
			traces.clear();
			WorkerAssignment back = again.assign(MAX_WORKER_ID);
			assertThat(back.workerId()).as("its own worker ID back").isEqualTo(id);
			assertThat(back.highWaterMarkMillis()).isEqualTo(1_760_000_000_000L);
			assertThat(traces).filteredOn((name) -> name.endsWith("-Foreground"))
				.as("a claim of its own worker ID back")
				.containsExactly("CuratorMultiTransactionImpl-Foreground");
			assertThat(again.fleet().orElseThrow().history(id).claims()).as("its history, read with the worker znode")
				.extracting(WorkerClaim::instanceId)
				.containsExactly("returning", "returning");
		}
	}

	/**
	 * A claim queues itself as a claimant znode and starts its first round as many places down the free and never-used
	 * worker IDs as claims queued before it are still in flight (their claimant znodes, made here by hand), so that
	 * the claims of a fleet starting at once each try another worker ID; its own previous worker ID stays first, and
	 * its take leaves the queue in the same transaction. Alone, a claim takes the lowest.
	 */
	@Test
	void aFirstRoundStartsAsManyPlacesDownAsClaimsQueuedBeforeItAreInFlight() throws Exception {
		String namespace = TestRedis.uniqueNamespace("queued");
		ZookeeperWorkerIdAssigner first = assigner(this.client, namespace, "first");
		long held = first.assign(MAX_WORKER_ID).workerId();
		ZookeeperWorkerIdAssigner returning = assigner(this.client, namespace, "returning");
		long previous = returning.assign(MAX_WORKER_ID).workerId();
		returning.release(previous, 1_760_000_000_000L);
		assertThat(List.of(held, previous)).containsExactly(0L, 1L);
		String claimants = first.getBasePath() + "/claimants";
		assertThat(this.client.getChildren().forPath(claimants)).as("each take left the queue").isEmpty();

		String one = this.client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(claimants + "/c-");
		String two = this.client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(claimants + "/c-");
		assertThat(assigner(this.client, namespace, "third").assign(MAX_WORKER_ID).workerId())
			.as("two claims ahead in flight: the third of 1 (released), 2, 3, … (never used)")
			.isEqualTo(3);
		assertThat(assigner(this.client, namespace, "returning").assign(MAX_WORKER_ID).workerId())
			.as("its own previous worker ID, whatever the queue")
			.isEqualTo(previous);
		assertThat(this.client.getChildren().forPath(claimants)).containsExactlyInAnyOrder(
				ZKPaths.getNodeFromPath(one), ZKPaths.getNodeFromPath(two));

		this.client.delete().forPath(one);
		this.client.delete().forPath(two);
		assertThat(assigner(this.client, namespace, "alone").assign(MAX_WORKER_ID).workerId()).isEqualTo(2);
	}

	/**
	 * Forty-eight instances claim at the same moment, each on a session of its own, in a namespace where three worker
	 * IDs were released and seven are held: each reads its place in the queue of claims in flight and the worker IDs
	 * taken from one state of the registry, so the places never meet. They take the three released ones and the
	 * lowest 45 never used, and not one take is refused: the ensemble logs exactly two writes per claim (its queue
	 * entry and its take), where a lost race adds a refused take. Listed one after the other, a claim ahead that took
	 * its worker ID between the two listings was counted twice or not at all, and the claim tried the worker ID of
	 * the claim behind or ahead of it.
	 */
	@Test
	void claimsOfTheSameMomentEachTakeTheWorkerIdAtTheirPlaceAndLoseNoRace() throws Exception {
		// As many as ZooKeeper's limit of 60 connections from one address leaves room for: at 32 the claims listed one
		// after the other lost no race in three runs; at 48, in two of six.
		int claims = 48;
		List<CuratorFramework> clients = new ArrayList<>();
		try (ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start();
				CuratorFramework own = zooKeeper.newClient(Duration.ofSeconds(30));
				AutoCloseable closeClientsFirst = () -> clients.forEach(CuratorFramework::close)) {
			List<ZookeeperWorkerIdAssigner> holders = new ArrayList<>();
			for (int i = 0; i < 10; i++) {
				holders.add(assigner(own, "moment", "holder-" + i));
				holders.get(i).recordLayout(UidLayout.defaults());
				assertThat(holders.get(i).assign(MAX_WORKER_ID).workerId()).isEqualTo(i);
			}
			for (int released : List.of(2, 4, 6)) {
				holders.get(released).release(released, 1_760_000_000_000L);
			}
			List<ZookeeperWorkerIdAssigner> assigners = new ArrayList<>();
			for (int i = 0; i < claims; i++) {
				clients.add(zooKeeper.newClient(Duration.ofSeconds(30)));
				assigners.add(assigner(clients.get(i), "moment", "new-" + i));
				assigners.get(i).recordLayout(UidLayout.defaults());
			}
			long before = writeZxid(own, "/before");
			CountDownLatch start = new CountDownLatch(1);
			List<CompletableFuture<Long>> taken = new ArrayList<>();
			for (ZookeeperWorkerIdAssigner assigner : assigners) {
				taken.add(CompletableFuture.supplyAsync(() -> {
					awaitQuietly(start);
					return assigner.assign(MAX_WORKER_ID).workerId();
				}, (task) -> new Thread(task).start()));
			}
			start.countDown();
			List<Long> ids = new ArrayList<>();
			for (CompletableFuture<Long> claim : taken) {
				ids.add(claim.get(60, TimeUnit.SECONDS));
			}
			long after = writeZxid(own, "/after");

			List<Long> expected = new ArrayList<>(List.of(2L, 4L, 6L));
			for (long id = 10; expected.size() < claims; id++) {
				expected.add(id);
			}
			assertThat(ids).as("each a distinct worker ID: the released ones and the lowest never used")
				.containsExactlyInAnyOrderElementsOf(expected);
			assertThat(after - before - 1).as("writes logged by %d claims at once: a queue entry and a take each, "
					+ "no take refused", claims)
				.isEqualTo(2L * claims);
		}
	}

	/**
	 * An application's own CuratorFramework with a namespace (a chroot of Curator's): the claim's multi-read, sent on
	 * the client's ZooKeeper handle rather than through Curator, lists the same znodes as Curator's calls do, under
	 * that namespace.
	 */
	@Test
	void aClientWithANamespaceOfItsOwnClaimsUnderIt() throws Exception {
		CuratorFramework namespaced = this.client.usingNamespace("an-application");
		String namespace = TestRedis.uniqueNamespace("namespaced");
		ZookeeperWorkerIdAssigner first = assigner(namespaced, namespace, "first");
		ZookeeperWorkerIdAssigner second = assigner(namespaced, namespace, "second");
		assertThat(first.assign(MAX_WORKER_ID).workerId()).isZero();
		assertThat(second.assign(MAX_WORKER_ID).workerId()).isEqualTo(1);
		assertThat(this.client.getChildren().forPath("/an-application" + first.getBasePath() + "/leases"))
			.containsExactlyInAnyOrder("0", "1");
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			if (!latch.await(60, TimeUnit.SECONDS)) {
				throw new IllegalStateException("the claims were never released");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A claim reads a few dozen worker znodes however large the registry: 200 worker IDs, 100 of them released and
	 * 100 held, and an instance that held one of the released ones gets it back through its owner znode, reading its
	 * own worker znode and its claims and nothing else (before, 16 other free ones beside them; every one, and the
	 * clock's write, before the owner znodes). Every worker ID has one owner znode, naming the instance its record
	 * names.
	 */
	@Test
	void aClaimInALargeRegistryReadsAFewWorkerZnodesAndFindsItsOwnByItsOwnerZnode() throws Exception {
		String namespace = TestRedis.uniqueNamespace("large");
		int size = 200;
		List<ZookeeperWorkerIdAssigner> instances = claimedOneByOne(namespace, size);
		for (int i = 1; i < size; i += 2) {
			instances.get(i).release(i, 1_760_000_000_000L + i);
		}
		try (CuratorFramework counted = this.shared.newClient(Duration.ofSeconds(30))) {
			List<String> traces = traces(counted);
			WorkerAssignment back = assigner(counted, namespace, "instance-157").assign(MAX_WORKER_ID);
			assertThat(back.workerId()).as("its own released worker ID, among 100 released").isEqualTo(157);
			assertThat(back.highWaterMarkMillis()).isEqualTo(1_760_000_000_157L);
			// Its own worker znode and its claims, read together; Curator's tracer counts a read or two more at times,
			// none of them a worker znode. The claim read 19 before it tried its own alone.
			long reads = traces.stream().filter((name) -> name.startsWith("GetDataBuilderImpl")).count();
			assertThat(reads).as("znodes read by the claim, of " + size + " worker znodes").isBetween(2L, 4L);
		}
		String base = assigner(this.client, namespace, "reader").getBasePath();
		List<String> owners = this.client.getChildren().forPath(base + "/owners");
		assertThat(owners).hasSize(size);
		for (String owner : owners) {
			long workerId = Long.parseLong(owner.substring(0, owner.indexOf('-')));
			WorkerRecord record = WorkerRecord.decode(this.client.getData().forPath(base + "/workers/" + workerId));
			assertThat(owner).isEqualTo(WorkerOwners.entry(workerId, record.instanceId()));
		}
	}

	/**
	 * An instance whose own worker ID another took since, in a registry a round only samples (70 released worker IDs,
	 * more than a round reads whole), finds it held when it tries it alone and claims as before: the lowest free one,
	 * without reading the whole registry.
	 */
	@Test
	void aClaimWhoseOwnWorkerIdWasTakenInALargeRegistryClaimsAnotherAsBefore() throws Exception {
		String namespace = TestRedis.uniqueNamespace("taken");
		int size = 70;
		List<ZookeeperWorkerIdAssigner> instances = claimedOneByOne(namespace, size);
		for (int i = 0; i < size; i++) {
			instances.get(i).release(i, 1_760_000_000_000L + i);
		}
		assertThat(assigner(this.client, namespace, "newcomer").assign(MAX_WORKER_ID).workerId())
			.as("the lowest free worker ID, instance-0's").isZero();
		try (CuratorFramework counted = this.shared.newClient(Duration.ofSeconds(30))) {
			List<String> traces = traces(counted);
			WorkerAssignment other = assigner(counted, namespace, "instance-0").assign(MAX_WORKER_ID);
			assertThat(other.workerId()).as("the lowest free worker ID left").isOne();
			assertThat(other.highWaterMarkMillis()).isEqualTo(1_760_000_000_001L);
			long reads = traces.stream().filter((name) -> name.startsWith("GetDataBuilderImpl")).count();
			assertThat(reads).as("znodes read by the claim, of " + size + " worker znodes").isLessThan(size / 2);
		}
	}

	/**
	 * Every one of 100 worker IDs leased (more than a round reads whole), three of them by holders that stopped
	 * renewing while their session lives on: while their leases last a claim finds nothing and says so; once they ran
	 * out, each of three claims takes one at its first attempt, whether or not its random few leased znodes held one,
	 * as a round that finds nothing to take reads them all (a round that trusted its sample would miss them in most).
	 */
	@Test
	void leasesThatRanOutAreFoundInAFullRegistryLargerThanARoundReads() throws Exception {
		String namespace = TestRedis.uniqueNamespace("full");
		long maxWorkerId = 99;
		List<Long> stalled = List.of(97L, 98L, 99L);
		for (int i = 0; i <= maxWorkerId; i++) {
			ZookeeperWorkerIdAssigner holder = stalled.contains((long) i) ? ZookeeperWorkerIdAssigner
				.builder(this.client)
				.namespace(namespace)
				.leaseDuration(Duration.ofSeconds(1))
				.instanceId("stalled-" + i)
				.build() : assigner(this.client, namespace, "holder-" + i);
			assertThat(holder.assign(maxWorkerId).workerId()).isEqualTo(i);
		}
		ZookeeperWorkerIdAssigner reader = assigner(this.client, namespace, "reader");
		assertThatExceptionOfType(AllWorkerIdsLeasedException.class).as("while the stalled leases last")
			.isThrownBy(() -> assigner(this.client, namespace, "too-early").assign(maxWorkerId));
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (!reader.fleet().orElseThrow().read((int) maxWorkerId + 1).workers().stream()
			.filter((worker) -> worker.state() == WorkerState.EXPIRED)
			.map(FleetWorker::workerId)
			.toList()
			.equals(stalled)) {
			assertThat(System.nanoTime()).as("the stalled leases of 1 s ran out within 30 s").isLessThan(deadline);
			TimeUnit.MILLISECONDS.sleep(20);
		}
		for (int i = 0; i < stalled.size(); i++) {
			assertThat(assigner(this.client, namespace, "newcomer-" + i).assign(maxWorkerId).workerId())
				.as("newcomer %d, at its first attempt", i)
				.isIn(stalled);
		}
	}

	/**
	 * A claim of a worker ID another instance held replaces its owner znode in the claim's transaction; a registry
	 * written before the owner znodes existed (none there) is claimed from as before, and gets them as it is claimed.
	 */
	@Test
	void aTakeReplacesTheOwnerZnodeAndARegistryWithoutOwnerZnodesIsClaimedFromAsBefore() throws Exception {
		String namespace = TestRedis.uniqueNamespace("owners");
		ZookeeperWorkerIdAssigner first = assigner(this.client, namespace, "first");
		long workerId = first.assign(MAX_WORKER_ID).workerId();
		first.release(workerId, 1_760_000_000_000L);
		String owners = first.getBasePath() + "/owners";
		assertThat(this.client.getChildren().forPath(owners)).containsExactly(WorkerOwners.entry(workerId, "first"));

		ZookeeperWorkerIdAssigner second = assigner(this.client, namespace, "second");
		assertThat(second.assign(MAX_WORKER_ID).workerId()).isEqualTo(workerId);
		assertThat(this.client.getChildren().forPath(owners)).containsExactly(WorkerOwners.entry(workerId, "second"));

		this.client.delete().forPath(owners + "/" + WorkerOwners.entry(workerId, "second"));
		this.client.delete().forPath(owners);
		long third = assigner(this.client, namespace, "third").assign(MAX_WORKER_ID).workerId();
		assertThat(third).isNotEqualTo(workerId);
		assertThat(this.client.getChildren().forPath(owners)).containsExactly(WorkerOwners.entry(third, "third"));
		second.release(workerId, 1_760_000_001_000L);
		assertThat(assigner(this.client, namespace, "second").assign(MAX_WORKER_ID).workerId())
			.as("its own previous worker ID, found by its record")
			.isEqualTo(workerId);
		assertThat(this.client.getChildren().forPath(owners)).containsExactlyInAnyOrder(
				WorkerOwners.entry(third, "third"), WorkerOwners.entry(workerId, "second"));
	}

	/** Instances {@code instance-0} to {@code instance-<count - 1>}, each claiming in turn: worker IDs 0 up. */
	private List<ZookeeperWorkerIdAssigner> claimedOneByOne(String namespace, int count) {
		List<ZookeeperWorkerIdAssigner> instances = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			instances.add(assigner(this.client, namespace, "instance-" + i));
			assertThat(instances.get(i).assign(MAX_WORKER_ID).workerId()).isEqualTo(i);
		}
		return instances;
	}

	/**
	 * Records the name of every request a client sends, as Curator's tracer names it ({@code GetDataBuilderImpl-…};
	 * "…-Foreground" for one the caller waits on alone).
	 */
	private static List<String> traces(CuratorFramework client) {
		List<String> names = new CopyOnWriteArrayList<>();
		client.getZookeeperClient().setTracerDriver(new TracerDriver() {

			@Override
			public void addTrace(String name, long time, TimeUnit unit) {
				names.add(name);
			}

			@Override
			public void addCount(String name, int increment) {
			}

		});
		return names;
	}

	/** Creates a znode and returns the zxid of its creation. */
	private static long writeZxid(CuratorFramework client, String path) throws Exception {
		Stat stat = new Stat();
		client.create().storingStatIn(stat).forPath(path);
		return stat.getCzxid();
	}

	@Test
	void aWorkerZnodeThatIsNotAWorkerRecordIsNeverHandedOut() throws Exception {
		String namespace = TestRedis.uniqueNamespace("corrupt");
		this.client.create().creatingParentsIfNeeded().forPath("/uid/" + namespace + "/workers/0",
				"written by hand".getBytes(StandardCharsets.UTF_8));
		assertThat(assigner(this.client, namespace, "careful").assign(MAX_WORKER_ID).workerId()).isEqualTo(1);
	}

	@Test
	void aClientThatWasNeverStartedIsNamedAsSuch() {
		try (CuratorFramework latent = CuratorFrameworkFactory.newClient(this.shared.connectString(),
				new RetryOneTime(100))) {
			assertThatExceptionOfType(WorkerAssignmentException.class)
				.isThrownBy(() -> ZookeeperWorkerIdAssigner.builder(latent).build().assign(MAX_WORKER_ID))
				.withMessageContaining("never started");
		}
	}

	@Test
	void theLeaseIsRenewedEverySixthOfItByDefault() {
		try (CuratorFramework latent = CuratorFrameworkFactory.newClient(this.shared.connectString(),
				new RetryOneTime(100))) {
			ZookeeperWorkerIdAssigner assigner = ZookeeperWorkerIdAssigner.builder(latent).build();
			assertThat(assigner.getLeaseDuration()).isEqualTo(Duration.ofSeconds(30));
			assertThat(assigner.getHeartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
			assertThat(assigner.renewInterval()).isEqualTo(Duration.ofSeconds(5));
		}
	}

	@Test
	void pathsThatZooKeeperCannotHoldAreRefused() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> ZookeeperWorkerIdAssigner.builder(this.client).rootPath("uid"))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("rootPath"));
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> ZookeeperWorkerIdAssigner.builder(this.client).rootPath("/uid/"));
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> ZookeeperWorkerIdAssigner.builder(this.client).namespace("orders/eu"))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("namespace"));
		assertThat(ZookeeperWorkerIdAssigner.builder(this.client).rootPath("/").namespace("ids").build().getBasePath())
			.isEqualTo("/ids");
	}

}
