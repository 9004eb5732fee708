"""The REST API of ``league``: serializers, views and routes."""
