package io.github.uidgen.text;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import io.github.uidgen.UidLayout;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What the opaque form promises, measured on a million consecutive IDs: every text distinct, adjacent IDs differ in
 * about half of their bits, the order of the texts has nothing to do with the order of the IDs, and another key does
 * not give the ID back. Keys: none by default, short ones refused, old ones read under their version.
 */
class OpaqueUidFormatTests {

	private static final int COUNT = 1_000_000;

	private static final byte[] KEY = OpaqueUidFormat.decodeKey("q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=");

	private static final byte[] OTHER_KEY = OpaqueUidFormat.decodeKey("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");

	private final UidLayout layout = UidLayout.defaults();

	private final OpaqueUidFormat opaque = OpaqueUidFormat.builder(this.layout.totalBits()).key("", KEY).build();

	private final long first = this.layout.compose(this.layout.toUnit(System.currentTimeMillis()), 7, 0);

	@Test
	void aMillionConsecutiveIdsGiveAMillionDistinctTextsOfOneLength() {
		String[] texts = new String[COUNT];
		for (int i = 0; i < COUNT; i++) {
			texts[i] = this.opaque.format(this.first + i);
			if (texts[i].length() != 11) {
				assertThat(texts[i]).hasSize(11);
			}
		}
		Arrays.sort(texts);
		for (int i = 1; i < COUNT; i++) {
			if (texts[i].equals(texts[i - 1])) {
				assertThat(texts[i]).as("two IDs with one text").isNotEqualTo(texts[i - 1]);
			}
		}
	}

	@Test
	void adjacentIdsDifferInAboutHalfOfTheirBits() {
		Ff1 cipher = new Ff1(KEY, this.layout.totalBits(), new byte[0]);
		long previous = cipher.encrypt(this.first);
		long differingBits = 0;
		int fewerThanAQuarter = 0;
		for (int i = 1; i < COUNT; i++) {
			long next = cipher.encrypt(this.first + i);
			int differing = Long.bitCount(previous ^ next);
			differingBits += differing;
			if (differing < 16) {
				fewerThanAQuarter++;
			}
			previous = next;
		}
		double mean = (double) differingBits / (COUNT - 1);
		// Random 63-bit values differ in 31.5 bits on average, with a standard deviation of the mean of 0.004 here.
		assertThat(mean).isBetween(31.3, 31.7);
		// Binomial(63, 1/2) falls below 16 about 4 times in 100,000.
		assertThat(fewerThanAQuarter).isLessThan(100);
	}

	@Test
	void theOrderOfTheTextsDoesNotFollowTheOrderOfTheIds() {
		// Fixed-width radix-62 texts sort as the numbers they spell, so a text's rank is that of its number.
		RadixUidFormat body = RadixUidFormat.radix62(this.layout.maxUid(), true);
		long[] encrypted = new long[COUNT];
		for (int i = 0; i < COUNT; i++) {
			encrypted[i] = body.parse(this.opaque.format(this.first + i));
		}
		long[] sorted = encrypted.clone();
		Arrays.sort(sorted);
		// Spearman's rank correlation between an ID's rank (i) and its text's rank.
		double sumSquaredRankDifferences = 0;
		for (int i = 0; i < COUNT; i++) {
			int textRank = Arrays.binarySearch(sorted, encrypted[i]);
			double d = textRank - i;
			sumSquaredRankDifferences += d * d;
		}
		double n = COUNT;
		double rho = 1 - 6 * sumSquaredRankDifferences / (n * (n * n - 1));
		// Independent orders give |rho| around 1 / sqrt(n) = 0.001.
		assertThat(Math.abs(rho)).isLessThan(0.01);
	}

	@Test
	void anotherKeyDoesNotGiveTheIdBack() {
		OpaqueUidFormat other = OpaqueUidFormat.builder(this.layout.totalBits()).key("", OTHER_KEY).build();
		for (int i = 0; i < 10_000; i++) {
			long uid = this.first + i;
			String text = this.opaque.format(uid);
			assertThat(other.format(uid)).isNotEqualTo(text);
			assertThat(other.parse(text)).isNotEqualTo(uid);
		}
	}

	@Test
	void threadsAtOnceEachGetTheAnswersOfOneThread() throws Exception {
		// More threads than the form keeps ciphers for, so that threads share slots and take each other's ciphers.
		int threads = 40;
		int perThread = 4_000;
		String[] expected = new String[threads * perThread];
		for (int i = 0; i < expected.length; i++) {
			expected[i] = this.opaque.format(this.first + i);
		}
		OpaqueUidFormat shared = OpaqueUidFormat.builder(this.layout.totalBits()).key("", KEY).build();
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<Integer>> wrong = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int from = t * perThread;
				wrong.add(pool.submit(() -> {
					int count = 0;
					for (int i = from; i < from + perThread; i++) {
						String text = shared.format(this.first + i);
						if (!text.equals(expected[i]) || shared.parse(text) != this.first + i) {
							count++;
						}
					}
					return count;
				}));
			}
			for (Future<Integer> count : wrong) {
				assertThat(count.get(60, TimeUnit.SECONDS)).isZero();
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void thereIsNoDefaultKeyAndShortOrMalformedKeysAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> OpaqueUidFormat.builder(63).build())
			.withMessageContaining("no default key");
		assertThatIllegalArgumentException().isThrownBy(() -> OpaqueUidFormat.decodeKey(""))
			.withMessageContaining("no default key");
		assertThatIllegalArgumentException().isThrownBy(() -> OpaqueUidFormat.decodeKey("c2VjcmV0"))
			.withMessageContaining("The key has 6 bytes")
			.withMessageContaining("a shorter one is refused");
		assertThatIllegalArgumentException().isThrownBy(() -> OpaqueUidFormat.decodeKey("not base64!"))
			.withMessageContaining("not base64");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> OpaqueUidFormat.decodeKey("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gIQ=="))
			.withMessageContaining("34 bytes");
		assertThatIllegalArgumentException().isThrownBy(() -> OpaqueUidFormat.builder(19))
			.withMessageContaining("20 to 63 bits");
	}

	/**
	 * Texts are stored and printed, so a later version must write and read them exactly as this one: FF1 is pinned by
	 * {@link Ff1KnownAnswerTests}, these pin what is built on it (the radix-62 writing, the width, the version).
	 */
	@Test
	void knownTextsOfKnownIdsStayTheSameFromVersionToVersion() {
		OpaqueUidFormat unversioned = OpaqueUidFormat.builder(63).key("", KEY).build();
		OpaqueUidFormat versioned = OpaqueUidFormat.builder(63).key("k", KEY).build();
		OpaqueUidFormat narrow = OpaqueUidFormat.builder(40).key("", OTHER_KEY).build();
		long[] ids = { 0, 1, 2, 250943701143015425L, Long.MAX_VALUE };
		assertThat(Arrays.stream(ids).mapToObj(unversioned::format)).containsExactly("3nluhI0aoVu", "1UpRh3CWGgC",
				"ArSJtBakAow", "6TxqkbW14Ht", "2KSxXDXqX8w");
		assertThat(Arrays.stream(ids).mapToObj(versioned::format)).containsExactly("k3nluhI0aoVu", "k1UpRh3CWGgC",
				"kArSJtBakAow", "k6TxqkbW14Ht", "k2KSxXDXqX8w");
		assertThat(LongStream.of(0, 1, (1L << 40) - 1).mapToObj(narrow::format)).containsExactly(
				"IEwCwy9", "41BfQE4", "J5tlVjf");
		assertThat(unversioned.parse("6TxqkbW14Ht")).isEqualTo(250943701143015425L);
		assertThat(versioned.parse("k2KSxXDXqX8w")).isEqualTo(Long.MAX_VALUE);
		assertThat(narrow.parse("J5tlVjf")).isEqualTo((1L << 40) - 1);
	}

	@Test
	void textsOfAPreviousKeyAreReadUnderItsVersionAfterARotation() {
		OpaqueUidFormat before = OpaqueUidFormat.builder(63).key("a", KEY).build();
		OpaqueUidFormat after = OpaqueUidFormat.builder(63).key("b", OTHER_KEY).key("a", KEY).build();
		Set<Long> ids = new HashSet<>();
		for (int i = 0; i < 1000; i++) {
			long uid = this.first + i;
			String old = before.format(uid);
			String rotated = after.format(uid);
			assertThat(old).startsWith("a").hasSize(12);
			assertThat(rotated).startsWith("b").hasSize(12);
			assertThat(after.parse(old)).isEqualTo(uid);
			assertThat(after.parse(rotated)).isEqualTo(uid);
			ids.add(after.parse(old));
		}
		assertThat(ids).hasSize(1000);
		// A key without a version stays readable next to versioned ones: its texts are one character shorter.
		OpaqueUidFormat unversioned = OpaqueUidFormat.builder(63).key("", KEY).build();
		OpaqueUidFormat withVersions = OpaqueUidFormat.builder(63).key("b", OTHER_KEY).key("", KEY).build();
		assertThat(withVersions.parse(unversioned.format(this.first))).isEqualTo(this.first);
	}

	@Test
	void eachUseWithItsOwnTweakGivesOtherTextsForTheSameIdsAndReadsOnlyItsOwn() {
		OpaqueUidFormat orders = this.opaque.tweaked("orders");
		OpaqueUidFormat users = this.opaque.tweaked("users");
		assertThat(this.opaque.tweaked("")).isSameAs(this.opaque);
		assertThat(this.opaque.tweaked("orders")).isSameAs(orders);
		assertThat(orders.tweaked("users")).isSameAs(users);
		Set<String> texts = new HashSet<>();
		for (int i = 0; i < 10_000; i++) {
			long uid = this.first + i;
			String plain = this.opaque.format(uid);
			String order = orders.format(uid);
			String user = users.format(uid);
			texts.add(plain);
			texts.add(order);
			texts.add(user);
			assertThat(order).hasSize(11);
			assertThat(orders.parse(order)).isEqualTo(uid);
			assertThat(users.parse(user)).isEqualTo(uid);
			assertThat(orders.parse(user)).isNotEqualTo(uid);
			assertThat(this.opaque.parse(order)).isNotEqualTo(uid);
		}
		// Three uses, 10,000 IDs: 30,000 texts with nothing in common.
		assertThat(texts).hasSize(30_000);
	}

	@Test
	void textsWrittenBeforeAUseTookATweakAreReadUnderTheirVersionAfterIt() {
		OpaqueUidFormat before = OpaqueUidFormat.builder(63).key("b", KEY).build();
		OpaqueUidFormat after = OpaqueUidFormat.builder(63)
			.key("c", KEY)
			.key("b", KEY)
			.writtenWithoutTweak("b")
			.build()
			.tweaked("orders");
		for (int i = 0; i < 1000; i++) {
			long uid = this.first + i;
			String old = before.format(uid);
			String tweaked = after.format(uid);
			assertThat(tweaked).startsWith("c");
			assertThat(tweaked.substring(1)).isNotEqualTo(old.substring(1));
			assertThat(after.parse(old)).isEqualTo(uid);
			assertThat(after.parse(tweaked)).isEqualTo(uid);
		}
		// Unversioned texts of before any version, as "none" in the properties.
		OpaqueUidFormat unversioned = OpaqueUidFormat.builder(63).key("", KEY).build();
		OpaqueUidFormat adopted = OpaqueUidFormat.builder(63)
			.key("c", OTHER_KEY)
			.key("", KEY)
			.writtenWithoutTweak("")
			.build()
			.tweaked("orders");
		assertThat(adopted.parse(unversioned.format(this.first))).isEqualTo(this.first);
	}

	@Test
	void onlyPreviousKeysAreWrittenWithoutTweak() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> OpaqueUidFormat.builder(63).key("c", KEY).writtenWithoutTweak("c").build())
			.withMessageContaining("current key's version 'c'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> OpaqueUidFormat.builder(63).key("c", KEY).writtenWithoutTweak("b").build())
			.withMessageContaining("'b'")
			.withMessageContaining("none of the previous keys' versions");
	}

	@Test
	void theFormPrintsItsVersionsAndTweakButNoKey() {
		OpaqueUidFormat form = OpaqueUidFormat.builder(63).key("c", KEY).key("b", OTHER_KEY).build().tweaked("t");
		assertThat(form.toString()).isEqualTo("opaque form of 63 bits, key versions [c, b], tweak 't'");
	}

	/** A tweak's texts are pinned as the empty tweak's are, checked against Bouncy Castle in Ff1KnownAnswerTests. */
	@Test
	void knownTextsOfATweakStayTheSameFromVersionToVersion() {
		OpaqueUidFormat orders = OpaqueUidFormat.builder(63).key("", KEY).build().tweaked("orders");
		long[] ids = { 0, 1, 250943701143015425L, Long.MAX_VALUE };
		String[] known = { "AX4N6MfVXBC", "556ZPlfBwr3", "8KjZGuKIIKr", "4SztJjQloMt" };
		assertThat(Arrays.stream(ids).mapToObj(orders::format)).containsExactly(known);
		RadixUidFormat body = RadixUidFormat.radix62(Long.MAX_VALUE, true);
		for (int i = 0; i < ids.length; i++) {
			// FF1 with the tweak's UTF-8 bytes, as Bouncy Castle computes it.
			assertThat(Ff1KnownAnswerTests.referenceBits(KEY, "orders".getBytes(StandardCharsets.UTF_8),
					Ff1KnownAnswerTests.bitString(ids[i], 63)))
				.isEqualTo(Ff1KnownAnswerTests.bitString(body.parse(known[i]), 63));
			assertThat(orders.parse(known[i])).isEqualTo(ids[i]);
		}
	}

}
