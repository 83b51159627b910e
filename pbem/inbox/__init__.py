"""Mail that comes in: routed once each, to bounces, replies, confirmations or mail commands."""
