package io.github.uidgen.redis;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;

/**
 * One plain socket to a {@link StandaloneRedis}, speaking RESP2 itself, for what uid sends while the JVM is cold: a
 * worker-ID claim's scripts, a segment store's first claim. Connects ({@code AUTH}, {@code SELECT},
 * {@code CLIENT SETNAME}) at the first command, and again at the next one after a failure. Failures come out as
 * Spring Data's exceptions, as a connection factory's would: an error reply as {@link RedisSystemException}, no
 * answer as {@link QueryTimeoutException}, a connection that fails as {@link DataAccessResourceFailureException}.
 */
public final class DirectRedisConnection {

	private final StandaloneRedis redis;

	private Socket socket;

	private InputStream in;

	private OutputStream out;

	/**
	 * A connection not made yet.
	 * @param redis the server, and how to connect to it
	 */
	public DirectRedisConnection(StandaloneRedis redis) {
		this.redis = redis;
	}

	/**
	 * Sends one command and reads its reply, connecting first when not connected.
	 * @param command the command and its arguments
	 * @return the reply: a string, a number, {@code null}, or a list of these
	 * @throws RedisSystemException when Redis answers with an error
	 * @throws QueryTimeoutException when it does not answer in time
	 * @throws DataAccessResourceFailureException when the connection cannot be made or breaks
	 */
	public synchronized Object call(String... command) {
		try {
			if (this.socket == null) {
				try {
					connect();
				}
				catch (IOException | RuntimeException ex) {
					// Refused AUTH or SELECT: connect afresh next time.
					close();
					throw ex;
				}
			}
			return send(command);
		}
		catch (IOException ex) {
			close();
			String message = "Redis " + this.redis + " did not answer uid's own connection: " + ex;
			throw (ex instanceof SocketTimeoutException) ? new QueryTimeoutException(message, ex)
					: new DataAccessResourceFailureException(message, ex);
		}
	}

	/** Connects, authenticates and selects the database. */
	private void connect() throws IOException {
		this.socket = new Socket();
		this.socket.setTcpNoDelay(true);
		this.socket.connect(new InetSocketAddress(this.redis.host(), this.redis.port()),
				millis(this.redis.connectTimeout()));
		this.socket.setSoTimeout(millis(this.redis.commandTimeout()));
		this.in = new BufferedInputStream(this.socket.getInputStream());
		this.out = new BufferedOutputStream(this.socket.getOutputStream());
		if (this.redis.password() != null) {
			if (this.redis.username() != null) {
				send("AUTH", this.redis.username(), this.redis.password());
			}
			else {
				send("AUTH", this.redis.password());
			}
		}
		if (this.redis.database() != 0) {
			send("SELECT", Integer.toString(this.redis.database()));
		}
		if (this.redis.clientName() != null) {
			send("CLIENT", "SETNAME", this.redis.clientName());
		}
	}

	private Object send(String... command) throws IOException {
		this.out.write(('*' + Integer.toString(command.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
		for (String part : command) {
			byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
			this.out.write(('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
			this.out.write(bytes);
			this.out.write('\r');
			this.out.write('\n');
		}
		this.out.flush();
		return read();
	}

	/** Reads one reply: a string, a number, {@code null}, or a list of these; an error reply is thrown. */
	private Object read() throws IOException {
		int type = this.in.read();
		if (type < 0) {
			throw new IOException("Redis closed the connection");
		}
		String line = line();
		return switch (type) {
			case '+' -> line;
			case '-' -> throw new RedisSystemException(line, null);
			case ':' -> Long.parseLong(line);
			case '$' -> bulk(Integer.parseInt(line));
			case '*' -> array(Integer.parseInt(line));
			default -> throw new IOException("Unexpected reply from Redis, starting with '" + (char) type + "'");
		};
	}

	private String bulk(int length) throws IOException {
		if (length < 0) {
			return null;
		}
		byte[] bytes = this.in.readNBytes(length);
		if (bytes.length < length || this.in.read() != '\r' || this.in.read() != '\n') {
			throw new IOException("Redis closed the connection within a reply");
		}
		return new String(bytes, StandardCharsets.UTF_8);
	}

	private List<Object> array(int length) throws IOException {
		if (length < 0) {
			return null;
		}
		List<Object> items = new ArrayList<>(length);
		for (int i = 0; i < length; i++) {
			items.add(read());
		}
		return items;
	}

	private String line() throws IOException {
		StringBuilder line = new StringBuilder();
		for (int c = this.in.read(); c != '\r'; c = this.in.read()) {
			if (c < 0) {
				throw new IOException("Redis closed the connection within a reply");
			}
			line.append((char) c);
		}
		if (this.in.read() != '\n') {
			throw new IOException("Unexpected reply from Redis: a line not ended by CRLF");
		}
		return line.toString();
	}

	private static int millis(Duration duration) {
		return (int) Math.min(Integer.MAX_VALUE, Math.max(1, duration.toMillis()));
	}

	/** Closes the socket; the next command connects again. */
	public synchronized void close() {
		if (this.socket != null) {
			try {
				this.socket.close();
			}
			catch (IOException ex) {
				// Nothing is left to send on it.
			}
			this.socket = null;
		}
	}

	@Override
	public String toString() {
		return "DirectRedisConnection[" + this.redis + "]";
	}

}
