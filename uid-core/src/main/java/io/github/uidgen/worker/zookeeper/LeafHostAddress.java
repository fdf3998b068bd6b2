package io.github.uidgen.worker.zookeeper;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.Enumeration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The address a Leaf server on this host names its node after ({@code Utils.getIp()} of Leaf): the first IPv4
 * address of the network interfaces that is not a loopback address. A uid instance that replaces a Leaf server on
 * its host finds the same node without being told the address.
 */
final class LeafHostAddress {

	private static final Logger logger = LoggerFactory.getLogger(LeafNodeWorkerIdAssigner.class);

	private LeafHostAddress() {
	}

	/**
	 * Returns the address, as Leaf picks it.
	 * @return the address, or an empty string when the host has no IPv4 address other than loopback
	 */
	static String find() {
		try {
			for (NetworkInterface networkInterface : Collections.list(NetworkInterface.getNetworkInterfaces())) {
				Enumeration<InetAddress> addresses = networkInterface.getInetAddresses();
				while (addresses.hasMoreElements()) {
					InetAddress address = addresses.nextElement();
					if (!address.isLoopbackAddress() && !(address instanceof Inet6Address)) {
						return address.getHostAddress();
					}
				}
			}
		}
		catch (SocketException ex) {
			logger.warn("Cannot list the network interfaces for Leaf's host address: {}", ex.toString());
		}
		return "";
	}

}
