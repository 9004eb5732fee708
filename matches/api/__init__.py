"""The REST API of ``matches``: serializers, views and routes."""
